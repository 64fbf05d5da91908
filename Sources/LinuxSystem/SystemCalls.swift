import Glibc

/// The errno of a failed system call, kept as a value so callers can turn it into the `CameraError` that
/// names the file the user cares about (the photo, not the hidden temporary file).
public struct Errno: Error, Equatable {
    public let code: Int32
    public init(code: Int32) { self.code = code }
    static var current: Errno { Errno(code: errno) }
}

/// One thin function per C call. Every call goes through `valueOrErrno`: EINTR is retried (a signal during a
/// capture must not turn into a failed save or a lost camera) and any other errno is thrown as `Errno`.
/// Descriptors these calls make are owned by `FileDescriptor` (or `UnixSocket`, `V4L2Device`), which close them.
public enum SystemCalls {
    /// The one policy for calls that answer -1 and set errno: retried on EINTR, thrown otherwise.
    public static func valueOrErrno<Value: FixedWidthInteger>(_ call: () -> Value) throws(Errno) -> Value {
        while true {
            let result = call()
            if result != -1 { return result }
            if errno != EINTR { throw Errno.current }
        }
    }


    /// open(2) with O_CLOEXEC; the caller owns the descriptor (`FileDescriptor.open` wraps it).
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(Errno) -> Int32 {
        try valueOrErrno { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    /// close(2), for the owners of descriptors.
    public static func close(_ descriptor: Int32) {
        // close(2) must not be retried on Linux: the descriptor is released even when it reports EINTR.
        _ = Glibc.close(descriptor)
    }

    public static func fsync(_ descriptor: Int32) throws(Errno) {
        _ = try valueOrErrno { Glibc.fsync(descriptor) }
    }

    public static func fileStatus(_ descriptor: Int32) throws(Errno) -> stat {
        var status = stat()
        _ = try valueOrErrno { Glibc.fstat(descriptor, &status) }
        return status
    }

    /// stat(2): follows symbolic links.
    public static func status(_ path: String) throws(Errno) -> stat {
        var status = stat()
        _ = try valueOrErrno { Glibc.fstatat(AT_FDCWD, path, &status, 0) }
        return status
    }

    /// lstat(2): describes a symbolic link itself.
    public static func linkStatus(_ path: String) throws(Errno) -> stat {
        var status = stat()
        _ = try valueOrErrno { Glibc.lstat(path, &status) }
        return status
    }

    /// Whether anything (including a dangling symbolic link) has this name.
    public static func nameExists(_ path: String) -> Bool {
        (try? linkStatus(path)) != nil
    }

    public static func access(_ path: String, _ mode: Int32) throws(Errno) {
        _ = try valueOrErrno { Glibc.access(path, mode) }
    }

    public static func rename(_ source: String, _ destination: String) throws(Errno) {
        _ = try valueOrErrno { Glibc.rename(source, destination) }
    }

    public static func link(_ existing: String, _ newName: String) throws(Errno) {
        _ = try valueOrErrno { Glibc.link(existing, newName) }
    }

    public static func symlink(_ target: String, _ linkPath: String) throws(Errno) {
        _ = try valueOrErrno { Glibc.symlink(target, linkPath) }
    }

    public static func unlink(_ path: String) throws(Errno) {
        _ = try valueOrErrno { Glibc.unlink(path) }
    }

    public static func mkdir(_ path: String, mode: mode_t = 0o755) throws(Errno) {
        _ = try valueOrErrno { Glibc.mkdir(path, mode) }
    }

    public static func readLink(_ path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try valueOrErrno { Glibc.readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// execv(2): this process becomes `path` with `arguments` (the first is its argv[0]); returns only by throwing.
    public static func execute(_ path: String, arguments: [String]) throws(Errno) -> Never {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        _ = try valueOrErrno { Glibc.execv(path, &argv) }
        // execv answers only -1; valueOrErrno threw it.
        fatalError("execv returned without an error")
    }

    /// Writes all of `bytes`, continuing after short writes.
    public static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try valueOrErrno {
                bytes.withUnsafeBytes { buffer in
                    Glibc.write(descriptor, buffer.baseAddress! + offset, min(buffer.count - offset, 1 << 30))
                }
            }
        }
    }

    /// pread(2) of up to `count` bytes at `offset`; fewer at the end of the file.
    public static func read(_ descriptor: Int32, count: Int, at offset: Int) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = try valueOrErrno {
                bytes.withUnsafeMutableBytes { buffer in
                    Glibc.pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
                }
            }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[0..<filled])
    }

    static func currentDirectory() -> String? {
        guard let pointer = Glibc.getcwd(nil, 0) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// The names in a directory, without "." and "..".
    public static func directoryEntries(_ path: String) throws(Errno) -> [String] {
        guard let directory = Glibc.opendir(path) else { throw Errno.current }
        defer { Glibc.closedir(directory) }
        var names: [String] = []
        while let entry = Glibc.readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

extension stat {
    public var isDirectory: Bool { st_mode & S_IFMT == S_IFDIR }
    public var isRegularFile: Bool { st_mode & S_IFMT == S_IFREG }
    public var isSymbolicLink: Bool { st_mode & S_IFMT == S_IFLNK }
    /// "a character device", "a named pipe"…: what a name that is not a photo file is, for messages.
    public var fileKind: String {
        switch st_mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFCHR: isVideoDevice ? "a video device (V4L2)" : "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }
    /// A V4L2 device node (a camera, a video output, a codec): a character device of videodev's major number,
    /// 81 on every Linux (include/uapi/linux/major.h, VIDEO_MAJOR).
    public var isVideoDevice: Bool { st_mode & S_IFMT == S_IFCHR && deviceMajor == 81 }
    /// glibc's `major()` (a macro Swift does not import): bits 8–19 and 44–63 of the device number.
    public var deviceMajor: UInt64 { (UInt64(st_rdev) >> 8) & 0xfff | (UInt64(st_rdev) >> 32) & ~0xfff }
    public var modificationSeconds: Double { Double(st_mtim.tv_sec) + Double(st_mtim.tv_nsec) / 1e9 }
}
