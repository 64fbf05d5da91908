import Glibc

/// A Unix stream socket: one thin function per C call, through `SystemCalls.valueOrErrno` (EINTR retried, errno
/// thrown as `Errno`). Its descriptor is owned (`FileDescriptor`) and closed when the socket is dropped.
public final class UnixSocket: Sendable {
    private let file: FileDescriptor
    var descriptor: Int32 { file.rawValue }

    init(owning file: consuming FileDescriptor) { self.file = file }

    public static func make() throws(Errno) -> UnixSocket {
        let descriptor = try SystemCalls.valueOrErrno {
            Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        return UnixSocket(owning: FileDescriptor(owning: descriptor))
    }

    /// sockaddr_un for `path` (at most 107 bytes).
    private static func address(_ path: String) throws(Errno) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Errno(code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }

    private func withAddress(_ path: String, _ call: (UnsafePointer<sockaddr>, socklen_t) -> Int32) throws(Errno) {
        var address = try Self.address(path)
        _ = try SystemCalls.valueOrErrno {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
    }

    public func bind(to path: String) throws(Errno) {
        try withAddress(path) { Glibc.bind(descriptor, $0, $1) }
    }

    public func connect(to path: String) throws(Errno) {
        try withAddress(path) { Glibc.connect(descriptor, $0, $1) }
    }

    public func listen(backlog: Int32 = 128) throws(Errno) {
        _ = try SystemCalls.valueOrErrno { Glibc.listen(descriptor, backlog) }
    }

    /// Waits for a client; nil once the socket is shut down.
    public func accept() -> UnixSocket? {
        while true {
            do {
                let client = FileDescriptor(owning: try SystemCalls.valueOrErrno { Glibc.accept(descriptor, nil, nil) })
                // accept4 needs _GNU_SOURCE, which Glibc's module does not define; close-on-exec set right after.
                _ = fcntl(client.rawValue, F_SETFD, FD_CLOEXEC)
                return UnixSocket(owning: client)
            } catch where error.code == ECONNABORTED {
                continue  // the client gave up before we took it; wait for the next
            } catch {
                return nil
            }
        }
    }

    /// The process at the other end (SO_PEERCRED), as the kernel recorded it when the connection was made.
    public var peerProcessID: Int32? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } — Glibc's module hides it behind _GNU_SOURCE.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.pid > 0 else { return nil }
        return credentials.pid
    }

    /// Wakes a blocked `accept` or `read` (they then return nil / 0).
    public func shutdown() { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Receive timeout, so a silent client cannot hold a connection thread forever.
    public func setReceiveTimeout(seconds: Int) {
        var time = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Up to `count` bytes; empty at end of stream or on error.
    func read(upTo count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        guard let got = try? SystemCalls.valueOrErrno({ Glibc.read(descriptor, &buffer, count) }) else { return [] }
        return Array(buffer[0..<got])
    }

    /// Writes all of `bytes`; false when the peer is gone.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a client that hung up must not kill the camera session with SIGPIPE.
            guard let written = try? SystemCalls.valueOrErrno({
                bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }), written > 0 else { return false }
            offset += written
        }
        return true
    }
}

/// Reads newline-terminated lines from a socket, keeping what follows the last newline for the next call.
public struct LineReader {
    let socket: UnixSocket
    /// Longer lines are refused (the protocol's requests are tiny).
    static let maximumLength = 64 * 1024
    private var pending: [UInt8] = []

    public init(socket: UnixSocket) { self.socket = socket }

    public enum Line { case text(String), tooLong, end }

    public mutating func next() -> Line {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return .text(line)
            }
            if pending.count > Self.maximumLength { pending = []; return .tooLong }
            let chunk = socket.read(upTo: 4096)
            if chunk.isEmpty { return .end }
            pending += chunk
        }
    }
}
