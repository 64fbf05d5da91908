import Glibc

/// Where a photo goes: checked before the camera is touched, written under a temporary name in the same
/// folder, then renamed into place so the photo appears whole or not at all.
struct PhotoOutput: Sendable {
    let path: String
    let temporaryPath: String
    let overwrite: Bool

    private static let counter = Counter()

    /// Checks that the folder exists and takes files, and that `path` is free unless `overwrite`.
    static func prepare(_ path: String, overwrite: Bool) throws -> PhotoOutput {
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let name = String(path.split(separator: "/").last ?? "")
        guard !name.isEmpty else { throw CameraError.outputNotWritable(path: path, reason: "it names a folder, not a file") }
        var info = stat()
        if stat(folder.isEmpty ? "/" : folder, &info) != 0 {
            throw CameraError.outputNotWritable(path: path, reason: "the folder \(folder) does not exist")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw CameraError.outputNotWritable(path: path, reason: "\(folder) is not a folder")
        }
        if !overwrite, lstat(path, &info) == 0 { throw CameraError.outputExists(path: path) }
        let temporary = "\(folder)/.\(name).partial-\(getpid())-\(counter.next())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CameraError.outputNotWritable(path: path, reason: "the folder \(folder) does not take new files (\(CameraError.errnoText(errno)))")
        }
        close(fd)
        return PhotoOutput(path: path, temporaryPath: temporary, overwrite: overwrite)
    }

    /// Flushes the written file to disk and renames it into place; never replaces an existing file unless
    /// `overwrite` was given. On failure the temporary file is removed.
    func commit() throws {
        do {
            let fd = open(temporaryPath, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CameraError.writeFailed(path: path, errno: errno) }
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw CameraError.writeFailed(path: path, errno: errno) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_size > 0 else { throw CameraError.writeFailed(path: path, errno: EIO) }
            if overwrite {
                guard rename(temporaryPath, path) == 0 else { throw CameraError.writeFailed(path: path, errno: errno) }
            } else {
                // link(2) fails with EEXIST where rename(2) would silently replace a file created meanwhile.
                guard link(temporaryPath, path) == 0 else {
                    let code = errno
                    if code == EEXIST { throw CameraError.outputExists(path: path) }
                    throw CameraError.writeFailed(path: path, errno: code)
                }
                unlink(temporaryPath)
            }
        } catch {
            discard()
            throw error
        }
    }

    func discard() { unlink(temporaryPath) }
}

import Synchronization

/// A process-wide counter for unique temporary names.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}
