import Foundation
import Glibc
import Testing
@testable import CameraErrors
@testable import LinuxSystem
@testable import MediaFiles

/// `--overwrite` replaces photo files only: named pipes and character devices are written into in place,
/// sockets and block devices are refused, a symbolic link is replaced itself and never its target (issue 16).
@Suite struct PhotoOutputTests {
    typealias F = PhotoFileFixtures

    static var sampleJPEG: [UInt8] { PhotoFileWriterTests.sampleJPEG }

    private func kind(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    /// Reads a named pipe to its end on another thread (as `cat fifo > file` would). The result waits at most
    /// 20 s: when nothing ever writes, the reader is released (a writer opens and closes) and the bytes are
    /// empty, so the test fails instead of hanging.
    private func readPipe(_ path: String) -> () -> [UInt8] {
        nonisolated(unsafe) var bytes: [UInt8] = []
        let done = DispatchSemaphore(value: 0)
        Thread {
            if let handle = FileHandle(forReadingAtPath: path) { bytes = [UInt8](handle.readDataToEndOfFile()) }
            done.signal()
        }.start()
        return {
            if done.wait(timeout: .now() + 20) == .timedOut {
                let release = open(path, O_WRONLY | O_NONBLOCK)
                if release >= 0 { close(release) }
                done.wait()
            }
            return bytes
        }
    }

    @Test func aNamedPipeGetsThePhotoStreamedIntoItAndStaysAPipe() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let fifo = directory + "/photo.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = readPipe(fifo)
        let saved = try PhotoOutput.save(Self.sampleJPEG, to: fifo, collision: .overwrite)
        #expect(saved == fifo)
        #expect(received() == Self.sampleJPEG)
        #expect(kind(fifo) == S_IFIFO)
        #expect(F.entries(directory) == ["photo.jpg"])  // no temporary file beside it
    }

    @Test func aNamedPipeNobodyReadsIsAnErrorAfterTheWaitNotAHang() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let fifo = directory + "/nobody"
        #expect(mkfifo(fifo, 0o600) == 0)
        let stream = try PhotoStream(path: fifo, kind: .namedPipe, format: .jpeg, readerWait: .milliseconds(200))
        do {
            try stream.write(Self.sampleJPEG)
            Issue.record("a pipe without a reader took the photo")
        } catch {
            #expect(error.description.contains("no program read from this named pipe"))
        }
        #expect(kind(fifo) == S_IFIFO)
    }

    @Test func aReaderThatLeavesEarlyIsAWriteErrorNotADeadProcess() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let fifo = directory + "/leaves"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opens, then closes without reading: the write gets EPIPE (and SIGPIPE, which must not kill us).
        Thread {
            let descriptor = open(fifo, O_RDONLY)
            usleep(100_000)
            close(descriptor)
        }.start()
        let big = Self.sampleJPEG + [UInt8](repeating: 0, count: 1 << 20)  // more than a pipe's buffer
        #expect(throws: CameraError.writeFailed(path: fifo, errno: EPIPE)) {
            try PhotoOutput.save(big, to: fifo, collision: .overwrite, format: nil)
        }
    }

    /// mknod needs root, which the test machine has; /dev/null is checked too, for everyone.
    @Test func aCharacterDeviceIsWrittenIntoNeverReplaced() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        var targets = ["/dev/null"]
        let node = directory + "/n"
        if getuid() == 0 {
            #expect(mknod(node, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0)
            targets.append(node)
        }
        for target in targets {
            var before = stat()
            stat(target, &before)
            let saved = try PhotoOutput.save(Self.sampleJPEG, to: target, collision: .overwrite)
            #expect(saved == target)
            var after = stat()
            #expect(lstat(target, &after) == 0)
            #expect(after.st_mode & S_IFMT == S_IFCHR, "\(target) was replaced")
            #expect(after.st_rdev == before.st_rdev && after.st_ino == before.st_ino)
        }
        #expect(F.entries(directory) == (getuid() == 0 ? ["n"] : []))
    }

    @Test func socketsAndPipesAreNeverRenamedOverAndTheErrorSaysWhatTheyAre() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let socketPath = directory + "/s.jpg"
        let socket = try UnixSocket.make()
        try socket.bind(to: socketPath)
        #expect(throws: CameraError.outputNotAPhotoFile(path: socketPath, kind: "a socket")) {
            try PhotoOutput.save(Self.sampleJPEG, to: socketPath, collision: .overwrite)
        }
        #expect(kind(socketPath) == S_IFSOCK)
        let fifo = directory + "/p.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        // The atomic writer alone (what a rename would do) refuses a pipe: only PhotoOutput streams into it.
        #expect(throws: CameraError.outputNotAPhotoFile(path: fifo, kind: "a named pipe")) {
            try AtomicPhotoWriter(finalPath: fifo, collision: .overwrite)
        }
        #expect(CameraError.outputNotAPhotoFile(path: "/dev/sda", kind: "a block device").description
            == "/dev/sda is a block device, not a photo file; it is never replaced. Choose a file name (or -o - for standard output).")
        #expect(F.entries(directory).sorted() == ["p.jpg", "s.jpg"])
    }

    @Test func overwritingASymbolicLinkReplacesTheLinkNotTheFileOutside() throws {
        let directory = F.makeDirectory()
        let outside = F.makeDirectory("outside")
        defer { F.removeTree(directory); F.removeTree(outside) }
        let target = outside + "/precious.txt"
        F.write(Array("keep me".utf8), to: target)
        let link = directory + "/photo.jpg"
        #expect(symlink(target, link) == 0)
        #expect(throws: CameraError.outputExists(path: link)) {
            try PhotoOutput.save(Self.sampleJPEG, to: link, collision: .fail)
        }
        try PhotoOutput.save(Self.sampleJPEG, to: link, collision: .overwrite)
        #expect(kind(link) == S_IFREG)
        #expect(F.bytes(link) == Self.sampleJPEG)
        #expect(F.bytes(target) == Array("keep me".utf8))
    }

    @Test func aSymbolicLinkToAPipeStreamsThroughIt() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(symlink(fifo, directory + "/out.jpg") == 0)  // as /dev/stdout leads to a pipe
        let received = readPipe(fifo)
        try PhotoOutput.save(Self.sampleJPEG, to: directory + "/out.jpg", collision: .fail)
        #expect(received() == Self.sampleJPEG)
        #expect(kind(directory + "/out.jpg") == S_IFLNK)
    }

    // MARK: - gstcam capture

    @Test func gstcamCaptureOverwriteIntoADeviceNodeAndANamedPipe() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let node = directory + "/n"
        if getuid() == 0 { #expect(mknod(node, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0) }
        let devices = getuid() == 0 ? [node, "/dev/null"] : ["/dev/null"]
        for device in devices {
            let result = try gstcam(["capture", "--device", "/dev/video0", "--immediate", "--overwrite", "-o", device])
            #expect(result.status == 0, "\(result.error)")
            #expect(kind(device) == S_IFCHR, "\(device) is no longer a character device")
        }
        let fifo = directory + "/pipe.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = readPipe(fifo)
        let result = try gstcam(["capture", "--device", "/dev/video0", "--immediate", "-o", fifo])
        #expect(result.status == 0, "\(result.error)")
        let bytes = received()
        #expect(JPEGReader.isComplete(MemoryBytes(bytes)) && JPEGReader.header(of: MemoryBytes(bytes)) != nil)
        #expect(kind(fifo) == S_IFIFO)
        // /dev/stdout into a pipe: the photo alone goes down the pipe, the "Saved" line to stderr.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gstcamBinary)
        process.arguments = ["capture", "--device", "/dev/video0", "--immediate", "-o", "/dev/stdout"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let piped = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(JPEGReader.isComplete(MemoryBytes(piped)), "\(piped.count) bytes, ending \(piped.suffix(40))")
        #expect(JPEGReader.header(of: MemoryBytes(piped)) != nil)
        let socketPath = directory + "/s"
        let socket = try UnixSocket.make()
        try socket.bind(to: socketPath)
        let refused = try gstcam(["capture", "--device", "/dev/video0", "--immediate", "--overwrite", "-o", socketPath])
        #expect(refused.status == 1)
        #expect(refused.error.contains("\(socketPath) is a socket, not a photo file"), "\(refused.error)")
        #expect(kind(socketPath) == S_IFSOCK)
    }

    /// A camera's own node, a folder or a taken name is refused before the camera opens (no "Mode:" line,
    /// which choosing its mode prints): the node used to get the JPEG written into it after the whole capture
    /// (EINVAL from a camera; a video output would take it as pixels), and a taken name came after the warm-up.
    @Test func gstcamCaptureRefusesACamerasNodeAFolderOrATakenNameBeforeTheCameraOpens() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let taken = directory + "/taken.jpg"
        #expect(FileManager.default.createFile(atPath: taken, contents: Data("mine".utf8)))
        let cases = [
            (["--overwrite"], "/dev/video2", "/dev/video2 is a video device (V4L2), not a photo file; it is never replaced."),
            ([], directory, "Cannot write \(directory): it is a directory (--dir \(directory) saves into it under a new name)."),
            ([], taken, "\(taken) already exists"),
        ]
        for (extra, output, message) in cases {
            let result = try gstcam(["capture", "--device", "/dev/video0", "-o", output] + extra)
            #expect(result.status == 1, "\(output): \(result.error)")
            #expect(result.error.contains(message), "\(output): \(result.error)")
            #expect(!result.error.contains("Mode:"), "the camera was opened for \(output): \(result.error)")
        }
        #expect(kind("/dev/video2") == S_IFCHR)
        #expect(FileManager.default.contents(atPath: taken) == Data("mine".utf8))
        #expect(F.entries(directory) == ["taken.jpg"])
    }
}
