import Glibc

/// A Unix stream socket descriptor: one thin function per C call, EINTR retried, errno thrown as `Errno`.
/// Closed when the value is dropped.
public final class UnixSocket: Sendable {
    let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { _ = Glibc.close(descriptor) }

    public static func make() throws(Errno) -> UnixSocket {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Errno.current }
        return UnixSocket(descriptor: descriptor)
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
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { throw Errno.current }
    }

    public func bind(to path: String) throws(Errno) {
        try withAddress(path) { Glibc.bind(descriptor, $0, $1) }
    }

    public func connect(to path: String) throws(Errno) {
        try withAddress(path) { address, length in
            while true {
                let result = Glibc.connect(descriptor, address, length)
                if result == 0 || errno != EINTR { return result }
            }
        }
    }

    public func listen(backlog: Int32 = 128) throws(Errno) {
        guard Glibc.listen(descriptor, backlog) == 0 else { throw Errno.current }
    }

    /// Waits for a client; nil once the socket is shut down.
    public func accept() -> UnixSocket? {
        while true {
            let client = Glibc.accept(descriptor, nil, nil)
            if client >= 0 {
                // accept4 needs _GNU_SOURCE, which Glibc's module does not define; close-on-exec set right after.
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                return UnixSocket(descriptor: client)
            }
            if errno != EINTR && errno != ECONNABORTED { return nil }
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
        while true {
            let got = Glibc.read(descriptor, &buffer, count)
            if got >= 0 { return Array(buffer[0..<got]) }
            if errno != EINTR { return [] }
        }
    }

    /// Writes all of `bytes`; false when the peer is gone.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a client that hung up must not kill the camera session with SIGPIPE.
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
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
