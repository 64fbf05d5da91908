import Glibc
import Synchronization
import CameraErrors
import LinuxSystem

/// What committing a photo does when its final name is already taken.
public enum PhotoNameCollision: Sendable, Equatable {
    /// Throw `CameraError.outputExists` and keep the other file (`-o FILE` without `--overwrite`).
    case fail
    /// Replace the other file atomically (`--overwrite`).
    case overwrite
    /// Save as `name_1.jpg`, `name_2.jpg`… instead (gallery names: another process may have taken the name
    /// between choosing it and saving).
    case addSuffix

    public init(overwrite: Bool) { self = overwrite ? .overwrite : .fail }
}

/// Numbers temporary files so two writers in one process never pick the same name.
private let temporaryFileCounter = Atomic<Int>(0)

/// Saves a photo so that its final name only ever holds a complete image: the image is written to a hidden
/// temporary file in the same directory, checked, fsynced, and renamed into place; the directory is then
/// fsynced so the rename survives a crash. A full disk, a vanished directory or an interrupted capture
/// leave either the complete photo or nothing under the final name.
///
/// Only regular files are replaced (`--overwrite`); named pipes and character devices are written in place by
/// `PhotoStream` instead (`PhotoOutput` chooses), anything else that is not a file is refused.
///
/// Use: `let writer = try AtomicPhotoWriter(finalPath:collision:)` before starting any camera work (it
/// checks the directory and reserves the temporary file), write the encoded image to `writer.temporaryPath`
/// (`write(_:to:collision:format:)` does both from memory), then `try writer.commit()` — or `writer.discard()`
/// if the capture failed. `commit` removes the temporary file when it throws, so after either call nothing is
/// left behind. Temporary files that killed processes left in a folder are removed the first time this process
/// writes there (`removeStaleTemporaryFiles`).
public struct AtomicPhotoWriter: Sendable {
    /// Where the photo is meant to end up (with `.addSuffix`, `commit` may choose `name_N` instead).
    let finalPath: String
    /// The hidden file to write: `.<final name>.partial-<pid>-<n>` beside the final path.
    let temporaryPath: String
    let collision: PhotoNameCollision
    /// The format `commit` checks the image against; from the final extension unless given.
    let format: PhotoFormat?

    /// The marker in temporary names; gallery listings and stale-file cleanup look for it.
    static let temporaryMarker = ".partial-"

    /// Checks that the photo can be saved — the directory exists, is a directory and is writable, and the
    /// final name is free unless overwriting or adding suffixes — and creates the empty temporary file.
    /// Throws `outputNotWritable` or `outputExists`; nothing is created then.
    public init(finalPath: String, collision: PhotoNameCollision, format: PhotoFormat? = nil) throws(CameraError) {
        let directory = FilePath.directory(of: finalPath)
        let name = FilePath.lastComponent(of: finalPath)
        guard !name.isEmpty, name != ".", name != ".." else {
            throw .outputNotWritable(path: finalPath, reason: "it names a directory, not a file")
        }
        try Self.checkDirectory(directory, for: finalPath)
        Self.removeStaleTemporaryFilesOnce(in: directory)
        if SystemCalls.nameExists(finalPath) {  // a dangling symbolic link counts: link(2) would refuse it too
            // What the name leads to: a symbolic link itself may be replaced (rename never touches its target),
            // but only when it leads to a photo file or nowhere; a pipe, device or socket is never replaced.
            if let target = try? SystemCalls.status(finalPath) {
                if target.isDirectory {
                    throw .outputNotWritable(path: finalPath, reason: "it is a directory (--dir \(finalPath) saves into it under a new name)")
                }
                if !target.isRegularFile { throw .outputNotAPhotoFile(path: finalPath, kind: target.fileKind) }
            }
            if collision == .fail { throw .outputExists(path: finalPath) }
        }
        self.finalPath = finalPath
        self.collision = collision
        self.format = format ?? PhotoFormat(path: finalPath)
        temporaryPath = try Self.createTemporaryFile(in: directory, for: name, finalPath: finalPath)
    }

    /// `init(finalPath:collision:)` with `--overwrite` semantics: replace or refuse.
    init(finalPath: String, overwrite: Bool, format: PhotoFormat? = nil) throws(CameraError) {
        try self.init(finalPath: finalPath, collision: PhotoNameCollision(overwrite: overwrite), format: format)
    }

    /// Saves `bytes` (an image already in memory) atomically; returns the path it was saved under.
    @discardableResult
    static func write(_ bytes: [UInt8], to finalPath: String, collision: PhotoNameCollision,
                      format: PhotoFormat? = nil) throws(CameraError) -> String {
        let writer = try AtomicPhotoWriter(finalPath: finalPath, collision: collision, format: format)
        do {
            try FileDescriptor.open(writer.temporaryPath, O_WRONLY | O_TRUNC).writeAll(bytes)
        } catch {
            writer.discard()
            throw .writeFailed(path: finalPath, errno: error.code)
        }
        return try writer.commit()
    }

    /// Makes the written temporary file the photo: fsync, check it is a complete image, rename into place,
    /// fsync the directory. Returns the final path (which `.addSuffix` may have changed). Throws
    /// `writeFailed` naming the final path (ENOSPC, EIO, ENOENT when the directory vanished, ENODATA when the
    /// image is empty or truncated) or `outputExists` (`.fail` and the name was taken meanwhile).
    @discardableResult
    func commit() throws(CameraError) -> String {
        do {
            try checkWrittenImage()
            let saved = try moveIntoPlace()
            try syncDirectory(of: saved)
            return saved
        } catch {
            discard()
            throw error
        }
    }

    /// Removes the temporary file (a failed or cancelled capture). Safe to call more than once.
    public func discard() {
        try? SystemCalls.unlink(temporaryPath)
    }

    // MARK: - Steps

    private static func checkDirectory(_ directory: String, for finalPath: String) throws(CameraError) {
        let status: stat
        do {
            status = try SystemCalls.status(directory)
        } catch {
            switch error.code {
            case ENOENT: throw .outputNotWritable(path: finalPath, reason: "the directory \(directory) does not exist")
            case ENOTDIR: throw .outputNotWritable(path: finalPath, reason: "part of \(directory) is a file, not a directory")
            default: throw .outputNotWritable(path: finalPath, reason: "\(directory): " + CameraError.errnoText(error.code))
            }
        }
        guard status.isDirectory else {
            throw .outputNotWritable(path: finalPath, reason: "\(directory) is not a directory")
        }
        do {
            try SystemCalls.access(directory, W_OK | X_OK)
        } catch {
            throw .outputNotWritable(path: finalPath, reason: reasonNotWritable(directory, error.code))
        }
    }

    private static func reasonNotWritable(_ directory: String, _ code: Int32) -> String {
        switch code {
        case EROFS: "\(directory) is on a read-only file system"
        case EACCES, EPERM: "you may not create files in \(directory) (check its permissions, or choose another --dir)"
        case ENOSPC, EDQUOT: "no space left on the device holding \(directory)"
        default: "\(directory): " + CameraError.errnoText(code)
        }
    }

    /// Creates `.<name>.partial-<pid>-<n>` exclusively (O_EXCL), so it is ours alone.
    private static func createTemporaryFile(in directory: String, for name: String,
                                            finalPath: String) throws(CameraError) -> String {
        while true {
            let number = nextTemporaryNumber()
            let path = FilePath.join(directory, ".\(name)\(temporaryMarker)\(getpid())-\(number)")
            do {
                try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL, mode: 0o666).close()
                return path
            } catch where error.code == EEXIST {
                continue  // left by an earlier process with our pid
            } catch {
                throw .outputNotWritable(path: finalPath, reason: reasonNotWritable(directory, error.code))
            }
        }
    }

    /// fsync the temporary file and check it holds a whole image of the expected format.
    private func checkWrittenImage() throws(CameraError) {
        do throws(Errno) {
            let file = try FileDescriptor.open(temporaryPath, O_RDONLY)
            try file.sync()
            let bytes = FileBytes(descriptor: file.rawValue, count: Int(try file.status().st_size))
            let complete = switch format {
            case .jpeg: JPEGReader.isComplete(bytes)
            case .png: PNGReader.isComplete(bytes)
            case nil: bytes.count > 0
            }
            file.close()  // after the reads: FileBytes reads through the raw descriptor
            if !complete { throw Errno(code: Self.filesystemIsFull(FilePath.directory(of: finalPath)) ? ENOSPC : ENODATA) }
        } catch {
            throw .writeFailed(path: finalPath, errno: error.code)
        }
    }

    /// A truncated image in a (practically) full file system was cut short by ENOSPC — the encoder saw the
    /// error, we see only its result — and saying so is more useful than "incomplete". Less than 64 KiB
    /// free counts as full: an encoder's write fails when the next block does not fit, not at zero.
    private static func filesystemIsFull(_ directory: String) -> Bool {
        var status = statvfs()
        return statvfs(directory, &status) == 0 && UInt64(status.f_bavail) * UInt64(status.f_frsize) < 64 * 1024
    }

    private func moveIntoPlace() throws(CameraError) -> String {
        switch collision {
        case .overwrite:
            do { try SystemCalls.rename(temporaryPath, finalPath) } catch {
                throw .writeFailed(path: finalPath, errno: error.code)
            }
            return finalPath
        case .fail:
            guard try linkWithoutReplacing(finalPath) else { throw .outputExists(path: finalPath) }
            return finalPath
        case .addSuffix:
            var candidate = finalPath
            var suffix = 1
            while try !linkWithoutReplacing(candidate) {
                candidate = PhotoLibrary.withSuffix(finalPath, suffix)
                suffix += 1
            }
            return candidate
        }
    }

    /// Gives the temporary file the name `path` unless something already has it (false then). link(2)
    /// fails with EEXIST instead of replacing, which rename(2) cannot do; the temporary name is removed after.
    private func linkWithoutReplacing(_ path: String) throws(CameraError) -> Bool {
        do {
            try SystemCalls.link(temporaryPath, path)
        } catch where error.code == EEXIST {
            return false
        } catch where error.code == EPERM || error.code == EOPNOTSUPP || error.code == EMLINK {
            // File systems without hard links (FAT, exFAT): check, then rename — a narrow race, the best
            // those file systems allow.
            if SystemCalls.nameExists(path) { return false }
            do { try SystemCalls.rename(temporaryPath, path) } catch {
                throw .writeFailed(path: path, errno: error.code)
            }
            return true
        } catch {
            throw .writeFailed(path: path, errno: error.code)
        }
        try? SystemCalls.unlink(temporaryPath)
        return true
    }

    /// Makes the new directory entry durable. On an I/O error the photo is removed again rather than left
    /// in a state a crash could lose, so the error's "nothing was saved" stays true.
    private func syncDirectory(of savedPath: String) throws(CameraError) {
        do {
            try FileDescriptor.open(FilePath.directory(of: savedPath), O_RDONLY | O_DIRECTORY).sync()
        } catch where error.code == EINVAL || error.code == EROFS {
            return  // the file system cannot sync directories; the rename is as durable as it gets
        } catch {
            try? SystemCalls.unlink(savedPath)
            throw .writeFailed(path: savedPath, errno: error.code)
        }
    }

    // MARK: - Leftovers

    /// The folders this process has cleaned already: once per folder is enough (a burst writes many photos to one
    /// folder, and listing a large Pictures folder for each would cost more than the photo).
    private static let cleanedDirectories = Mutex<Set<String>>([])

    static func removeStaleTemporaryFilesOnce(in directory: String) {
        guard cleanedDirectories.withLock({ $0.insert(directory).inserted }) else { return }
        removeStaleTemporaryFiles(in: directory)
    }

    /// Removes temporary files that processes no longer running left in `directory` (e.g. killed
    /// mid-capture); returns their paths. Files of running processes are kept: they are being written.
    @discardableResult
    static func removeStaleTemporaryFiles(in directory: String) -> [String] {
        guard let names = try? SystemCalls.directoryEntries(directory) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(".") {
            guard let owner = temporaryFileOwner(name), owner != getpid(), kill(owner, 0) == -1, errno == ESRCH else { continue }
            let path = FilePath.join(directory, name)
            if (try? SystemCalls.unlink(path)) != nil { removed.append(path) }
        }
        return removed
    }

    /// The pid in `.<name>.partial-<pid>-<n>`, or nil if `name` is not a temporary file name.
    static func temporaryFileOwner(_ name: String) -> pid_t? {
        let pieces = name.components(separatedByText: temporaryMarker)
        guard name.hasPrefix("."), pieces.count >= 2, let tail = pieces.last else { return nil }
        let parts = tail.split(separator: "-" as Character, omittingEmptySubsequences: false)
        guard parts.count == 2, let pid = pid_t(parts[0]), Int(parts[1]) != nil, pid > 0 else { return nil }
        return pid
    }

    /// A number no other temporary name of this process has.
    static func nextTemporaryNumber() -> Int {
        temporaryFileCounter.add(1, ordering: .relaxed).newValue
    }
}
