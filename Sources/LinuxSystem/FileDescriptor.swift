import Glibc

/// An open file descriptor that this value owns: it cannot be copied, and it is closed exactly once — when the
/// value ends, or earlier by `close()`. Opening, reading and writing go through `SystemCalls` (EINTR retried,
/// errno thrown as `Errno`).
public struct FileDescriptor: ~Copyable, Sendable {
    public let rawValue: Int32

    /// Takes ownership of `rawValue` (from a call that made a descriptor: open, socket, accept).
    public init(owning rawValue: Int32) { self.rawValue = rawValue }

    deinit { SystemCalls.close(rawValue) }

    /// Closes now rather than when the value ends.
    public consuming func close() {}

    /// open(2), close-on-exec.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        FileDescriptor(owning: try SystemCalls.open(path, flags, mode: mode))
    }

    /// fsync(2).
    public func sync() throws(Errno) { try SystemCalls.fsync(rawValue) }

    /// fstat(2).
    public func status() throws(Errno) -> stat { try SystemCalls.fileStatus(rawValue) }

    /// Writes all of `bytes`, continuing after short writes.
    public func writeAll(_ bytes: [UInt8]) throws(Errno) { try SystemCalls.writeAll(rawValue, bytes) }

    /// pread(2) of up to `count` bytes at `offset`; fewer at the end of the file.
    public func read(count: Int, at offset: Int) throws(Errno) -> [UInt8] {
        try SystemCalls.read(rawValue, count: count, at: offset)
    }

    /// The file from `offset` to its end, read in pieces (pread(2)).
    public func readToEnd(from offset: Int = 0) throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let piece = try read(count: 64 * 1024, at: offset + bytes.count)
            if piece.isEmpty { return bytes }
            bytes += piece
        }
    }

    /// fcntl(2) F_GETFL/F_SETFL: blocking or non-blocking I/O from now on.
    public func setBlocking(_ blocking: Bool) throws(Errno) {
        let flags = try SystemCalls.valueOrErrno { fcntl(rawValue, F_GETFL) }
        _ = try SystemCalls.valueOrErrno { fcntl(rawValue, F_SETFL, blocking ? flags & ~O_NONBLOCK : flags | O_NONBLOCK) }
    }
}
