import Glibc
import LinuxSystem

/// A connection to a running camera screen's socket (`CameraRemoteServer`).
public final class CameraRemoteClient: Sendable {
    public enum Connection: Sendable {
        /// Nothing listens there: no socket file.
        case noSession
        /// A socket file was there but nothing accepted (a crashed session): it was removed.
        case removedStale
        /// The socket's folder is not this user's private folder (`reason` says why): whatever listens there
        /// may be another user's program, so it is not used.
        case untrusted(reason: String)
        case connected(CameraRemoteClient)
    }

    private let socket: UnixSocket
    public let path: String

    private init(socket: UnixSocket, path: String) {
        self.socket = socket
        self.path = path
    }

    /// Connects to the session listening at `path`, removing the socket file if it is stale. The folder must be
    /// this user's alone (`RuntimeFolder`), or nothing in it is trusted.
    public static func connect(to path: String) -> Connection {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK else { return .noSession }
        if let reason = RuntimeFolder.distrust(RuntimeFolder.of(path)) { return .untrusted(reason: reason) }
        guard let socket = try? UnixSocket.make() else { return .noSession }
        do {
            try socket.connect(to: path)
            socket.setReceiveTimeout(seconds: 30)
            return .connected(CameraRemoteClient(socket: socket, path: path))
        } catch where error.code == ECONNREFUSED {
            unlink(path)
            return .removedStale
        } catch {
            return .noSession
        }
    }

    /// Sends one request line and returns the reply line.
    public func send(_ line: String) throws -> String {
        guard socket.write(Array((line + "\n").utf8)) else {
            throw RemoteProtocolError("the session at \(path) hung up")
        }
        var reader = LineReader(socket: socket)
        guard case let .text(reply) = reader.next() else {
            throw RemoteProtocolError("the session at \(path) sent no reply")
        }
        return reply
    }

    /// Sends a request object and returns the reply object; a reply with "ok": false is thrown with its "error".
    public func request(_ object: [String: JSONValue]) throws -> [String: JSONValue] {
        let reply = try send(RemoteRequest.encode(object))
        guard let parsed = JSONValue.object(parsing: reply) else {
            throw RemoteProtocolError("the session at \(path) replied with something that is not JSON: \(reply)")
        }
        guard parsed["ok"]?.bool == true else {
            throw RemoteProtocolError(parsed["error"]?.string ?? "the session at \(path) refused the request")
        }
        return parsed
    }
}

extension CameraRemoteClient {
    /// The process serving the socket (the camera screen's pid), from the kernel rather than from its word.
    var peerProcessID: Int32? { socket.peerProcessID }

    /// A shorter wait for replies than the 30 s default, for tests that must not hang.
    func setReceiveTimeoutForTests(seconds: Int) { socket.setReceiveTimeout(seconds: seconds) }
}
