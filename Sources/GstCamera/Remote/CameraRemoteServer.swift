import Dispatch
import Foundation
import Glibc
import Synchronization

/// The Unix socket a running camera screen listens on (`RemoteSocketPath`), so other gstcam commands for the
/// same camera are served by this session (a photo in milliseconds) instead of failing with "device busy".
/// Each connection is served on its own thread, requests in order; a bad request gets an error reply and the
/// session carries on.
public final class CameraRemoteServer: Sendable {
    /// Where it listens now (it moves when the session switches cameras).
    public var path: String { currentPath.withLock { $0 } }
    private let currentPath: Mutex<String>
    private let socket: UnixSocket
    private let perform: @Sendable (CameraAction) async -> CameraActionOutcome
    private let status: @Sendable () -> CameraOperator.Status
    private let stopped = Atomic<Bool>(false)

    private init(path: String, socket: UnixSocket, perform: @escaping @Sendable (CameraAction) async -> CameraActionOutcome,
                 status: @escaping @Sendable () -> CameraOperator.Status) {
        currentPath = Mutex(path)
        self.socket = socket
        self.perform = perform
        self.status = status
    }

    /// Listens at `path` (mode 0600). A socket left there by a crashed session (nothing accepts on it) is
    /// removed first; a live one means another session serves this camera, which is an error.
    public static func start(path: String, status: @escaping @Sendable () -> CameraOperator.Status,
                             perform: @escaping @Sendable (CameraAction) async -> CameraActionOutcome) throws -> CameraRemoteServer {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        if folder == RemoteSocketPath.fallbackFolder() { try makePrivateFolder(folder) }
        switch CameraRemoteClient.connect(to: path) {
        case .connected:
            throw RemoteProtocolError("another gstcam session already listens on \(path)")
        case .noSession, .removedStale:
            break
        }
        let socket: UnixSocket
        do {
            socket = try UnixSocket.make()
            let oldMask = umask(0o177)
            defer { umask(oldMask) }
            try socket.bind(to: path)
            chmod(path, 0o600)
            try socket.listen()
        } catch {
            throw RemoteProtocolError("cannot listen on \(path): \(String(cString: strerror(error.code)))")
        }
        let server = CameraRemoteServer(path: path, socket: socket, perform: perform, status: status)
        let thread = Thread { [server] in server.acceptConnections() }
        thread.name = "gstcam-remote"
        thread.start()
        return server
    }

    /// Stops listening and removes the socket file.
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        currentPath.withLock { _ = unlink($0) }
        socket.shutdown()
    }

    /// Moves the socket to `newPath` (after a camera switch, the socket of the camera now streaming), unless a
    /// live session already listens there. rename(2) keeps the listening socket; clients connect by path.
    @discardableResult
    public func move(to newPath: String) -> Bool {
        if case .connected = CameraRemoteClient.connect(to: newPath) { return false }
        return currentPath.withLock { path in
            guard path != newPath, rename(path, newPath) == 0 else { return path == newPath }
            path = newPath
            return true
        }
    }

    deinit { stop() }

    private static func makePrivateFolder(_ folder: String) throws {
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw RemoteProtocolError("cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_uid == getuid(), (info.st_mode & S_IFMT) == S_IFDIR else {
            throw RemoteProtocolError("\(folder) is not a folder of this user; remove it or set XDG_RUNTIME_DIR")
        }
        if info.st_mode & 0o077 != 0 { chmod(folder, 0o700) }
    }

    private func acceptConnections() {
        while !stopped.load(ordering: .relaxed), let client = socket.accept() {
            let thread = Thread { [self] in serve(client) }
            thread.name = "gstcam-remote-client"
            thread.start()
        }
    }

    private func serve(_ client: UnixSocket) {
        client.setReceiveTimeout(seconds: 60)
        var reader = LineReader(socket: client)
        while !stopped.load(ordering: .relaxed) {
            switch reader.next() {
            case .end:
                return
            case .tooLong:
                client.write(Array((RemoteRequest.encode(["ok": false, "error": "request line too long"]) + "\n").utf8))
                return
            case let .text(line):
                if line.allSatisfy(\.isWhitespace) { continue }
                guard client.write(Array((answer(line) + "\n").utf8)) else { return }
            }
        }
    }

    /// The reply line for one request line.
    func answer(_ line: String) -> String {
        switch RemoteRequest.parse(line) {
        case let .failure(error):
            return RemoteRequest.encode(["ok": false, "error": error.description])
        case .success(.status):
            return RemoteRequest.encode(RemoteRequest.reply(status()))
        case let .success(.action(action)):
            // This is a plain thread: it waits for the session's async work with a semaphore.
            let result = Mutex<String?>(nil)
            let done = DispatchSemaphore(value: 0)
            let perform = self.perform
            Task {
                let outcome = await perform(action)
                result.withLock { $0 = RemoteRequest.encode(RemoteRequest.reply(outcome)) }
                done.signal()
            }
            done.wait()
            return result.withLock { $0 } ?? #"{"error":"no reply","ok":false}"#
        }
    }
}
