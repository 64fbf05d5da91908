import Glibc
import CameraErrors
import LinuxSystem

/// Where a photo's bytes go. A regular file or a free name is saved atomically (`AtomicPhotoWriter`: a hidden
/// temporary file renamed into place); a named pipe or a character device — `-o /dev/null`, `-o /dev/stdout`
/// into a pipe, a FIFO another program reads — gets the bytes streamed into it, because renaming over it would
/// replace the pipe or the device node with a plain file.
public enum PhotoOutput: Sendable {
    case file(AtomicPhotoWriter)
    case stream(PhotoStream)

    /// Checks that a photo can go to `finalPath` (see `AtomicPhotoWriter.init` for files, `PhotoStream.init`
    /// for pipes and character devices) before any camera work.
    public init(finalPath: String, collision: PhotoNameCollision, format: PhotoFormat? = nil) throws(CameraError) {
        if let kind = PhotoStream.streamKind(of: finalPath) {
            self = .stream(try PhotoStream(path: finalPath, kind: kind, format: format))
        } else {
            self = .file(try AtomicPhotoWriter(finalPath: finalPath, collision: collision, format: format))
        }
    }

    /// Saves an encoded image; returns the path it went to (`.addSuffix` may have chosen another name).
    @discardableResult
    public func save(_ bytes: [UInt8]) throws(CameraError) -> String {
        switch self {
        case let .file(writer):
            try writer.write(bytes)
            return try writer.commit()
        case let .stream(stream):
            try stream.write(bytes)
            return stream.path
        }
    }

    /// Gives up without saving (removes a file's temporary file; a stream was not opened yet).
    public func discard() {
        if case let .file(writer) = self { writer.discard() }
    }

    /// `PhotoOutput(finalPath:…).save(bytes)`.
    @discardableResult
    public static func save(_ bytes: [UInt8], to finalPath: String, collision: PhotoNameCollision,
                     format: PhotoFormat? = nil) throws(CameraError) -> String {
        try PhotoOutput(finalPath: finalPath, collision: collision, format: format).save(bytes)
    }
}

/// A named pipe or character device a photo is written into in place: opened for writing only (never created,
/// truncated or renamed over), after the image is known to be complete.
public struct PhotoStream: Sendable {
    enum Kind: Sendable { case namedPipe, characterDevice }

    let path: String
    let kind: Kind
    let format: PhotoFormat?
    /// How long a named pipe may have no reader before the photo is given up.
    let readerWait: Duration

    /// `.namedPipe` or `.characterDevice` when `path` is one (symbolic links followed, so `/dev/stdout` counts
    /// when it leads to a pipe or a terminal); nil for anything else, which is saved as a file.
    static func streamKind(of path: String) -> Kind? {
        guard let status = try? SystemCalls.status(path) else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFIFO: return .namedPipe
        case S_IFCHR: return .characterDevice
        default: return nil
        }
    }

    init(path: String, kind: Kind, format: PhotoFormat?, readerWait: Duration = .seconds(10)) throws(CameraError) {
        // A camera takes no writes (EINVAL after the whole capture), and a video output or a loopback device
        // would take the JPEG's bytes as a frame of pixels: neither is where a photo is meant to go.
        if kind == .characterDevice, let status = try? SystemCalls.status(path), status.isVideoDevice {
            throw .outputNotAPhotoFile(path: path, kind: status.fileKind)
        }
        do { try SystemCalls.access(path, W_OK) } catch {
            throw .outputNotWritable(path: path, reason: "you may not write to this \(kind == .namedPipe ? "named pipe" : "device") (\(CameraError.errnoText(error.code)))")
        }
        self.path = path
        self.kind = kind
        self.format = format ?? PhotoFormat(path: path)
        self.readerWait = readerWait
    }

    /// Checks the image is whole, then writes all of it. A named pipe is waited for up to `readerWait` until a
    /// program reads it. A reader that leaves early is `writeFailed` (EPIPE), never a SIGPIPE that would end
    /// this process (the camera screen serves other requests).
    func write(_ bytes: [UInt8]) throws(CameraError) {
        let complete = switch format {
        case .jpeg: JPEGReader.isComplete(MemoryBytes(bytes))
        case .png: PNGReader.isComplete(MemoryBytes(bytes))
        case nil: !bytes.isEmpty
        }
        guard complete else { throw .writeFailed(path: path, errno: ENODATA) }
        let file = try open()
        do {
            try Self.withoutBrokenPipeSignal { () throws(Errno) in try file.writeAll(bytes) }
        } catch {
            throw .writeFailed(path: path, errno: error.code)
        }
    }

    private func open() throws(CameraError) -> FileDescriptor {
        guard kind == .namedPipe else {
            do { return try FileDescriptor.open(path, O_WRONLY | O_NOCTTY) } catch {
                throw .writeFailed(path: path, errno: error.code)
            }
        }
        // O_NONBLOCK: opening a pipe nobody reads fails (ENXIO) instead of blocking forever; retried until a
        // reader comes or the wait is over, then the descriptor goes back to blocking writes.
        let deadline = ContinuousClock.now + readerWait
        while true {
            do {
                let file = try FileDescriptor.open(path, O_WRONLY | O_NONBLOCK)
                try file.setBlocking(true)
                return file
            } catch where error.code == ENXIO && ContinuousClock.now < deadline {
                usleep(20_000)
            } catch where error.code == ENXIO {
                throw .outputNotWritable(path: path, reason: "no program read from this named pipe within "
                    + "\(readerWait.components.seconds) s (start the reader first, e.g. cat \(path) > photo.jpg)")
            } catch {
                throw .writeFailed(path: path, errno: error.code)
            }
        }
    }

    /// Runs `body` with SIGPIPE blocked on this thread, and consumes a SIGPIPE it raised, so a write to a pipe
    /// whose reader left fails with EPIPE instead of killing the process.
    private static func withoutBrokenPipeSignal(_ body: () throws(Errno) -> Void) throws(Errno) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 && sigismember(&previous, SIGPIPE) == 0 {
                var none = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &none)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        try body()
    }
}
