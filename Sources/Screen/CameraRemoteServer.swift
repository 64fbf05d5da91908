import Dispatch
import Glibc
import Synchronization
import LinuxSystem
import Cameras

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

    /// A connection being served: waiting for its next request since some instant, or answering one (nil).
    private struct Connection {
        let socket: UnixSocket
        var waitingSince: ContinuousClock.Instant?
    }
    private struct Connections {
        var byID: [Int: Connection] = [:]
        var lastID = 0
    }
    private let connections = Mutex(Connections())

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
        let folder = RuntimeFolder.of(path)
        if folder == RemoteSocketPath.fallbackFolder() { try RuntimeFolder.makePrivate(folder) }
        if let reason = RuntimeFolder.distrust(folder) {
            throw RemoteProtocolError("\(reason); set XDG_RUNTIME_DIR to a private folder")
        }
        switch CameraRemoteClient.connect(to: path) {
        case .connected:
            throw RemoteProtocolError("another gstcam session already listens on \(path)")
        case .noSession, .removedStale, .untrusted:
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
        BlockingThread.start(named: "gstcam-remote") { [server] in server.acceptConnections() }
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
    func move(to newPath: String) -> Bool {
        if case .connected = CameraRemoteClient.connect(to: newPath) { return false }
        return currentPath.withLock { path in
            guard path != newPath, rename(path, newPath) == 0 else { return path == newPath }
            path = newPath
            return true
        }
    }

    deinit { stop() }

    /// Connections served at once, so a flood cannot exhaust threads. A newcomer beyond it takes the place of the
    /// connection that has waited longest without asking anything; only when every one is answering a request is
    /// it told to try again.
    static let maximumConnections = 64
    /// How long a connection may stay silent before it is closed: a client that connects and says nothing
    /// holds a thread, never the camera or other clients.
    static let idleSeconds = 10

    private func acceptConnections() {
        while !stopped.load(ordering: .relaxed), let client = socket.accept() {
            guard let id = admit(client) else {
                client.write(Self.errorLine("too many requests at once (\(Self.maximumConnections)); try again"))
                continue
            }
            BlockingThread.start(named: "gstcam-remote-client") { [self] in
                serve(client, id: id)
                connections.withLock { _ = $0.byID.removeValue(forKey: id) }
            }
        }
    }

    /// A place for `client`, made by closing the longest-silent connection when all are taken; nil when every
    /// connection is answering a request.
    private func admit(_ client: UnixSocket) -> Int? {
        let (id, evicted): (Int?, UnixSocket?) = connections.withLock { connections in
            var evicted: UnixSocket?
            if connections.byID.count >= Self.maximumConnections {
                let silentLongest = connections.byID
                    .compactMap { id, connection in connection.waitingSince.map { (id, $0) } }
                    .min { $0.1 < $1.1 }
                guard let silentLongest else { return (nil, nil) }
                evicted = connections.byID.removeValue(forKey: silentLongest.0)?.socket
            }
            connections.lastID += 1
            connections.byID[connections.lastID] = Connection(socket: client, waitingSince: .now)
            return (connections.lastID, evicted)
        }
        evicted?.shutdown()   // its reader sees the end and its thread returns
        return id
    }

    /// Marks connection `id` as waiting for a request (true) or answering one (false).
    private func mark(_ id: Int, waiting: Bool) {
        connections.withLock { $0.byID[id]?.waitingSince = waiting ? .now : nil }
    }

    private func serve(_ client: UnixSocket, id: Int) {
        client.setReceiveTimeout(seconds: Self.idleSeconds)
        var reader = LineReader(socket: client)
        while !stopped.load(ordering: .relaxed) {
            mark(id, waiting: true)
            let next = reader.next()
            mark(id, waiting: false)
            switch next {
            case .end:
                return
            case .tooLong:
                client.write(Self.errorLine("request line too long"))
                return
            case let .text(line):
                let reply = line.allSatisfy(\.isWhitespace)
                    ? RemoteRequest.encode(["ok": false, "error": "empty request: send one JSON object per line, e.g. {\"command\":\"status\"}"])
                    : answer(line)
                guard client.write(Array((reply + "\n").utf8)) else { return }
            }
        }
    }

    private static func errorLine(_ text: String) -> [UInt8] {
        Array((RemoteRequest.encode(["ok": false, "error": .string(text)]) + "\n").utf8)
    }

    /// The reply line for one request line.
    func answer(_ line: String) -> String {
        switch RemoteRequest.parse(line) {
        case let .failure(error):
            return RemoteRequest.encode(["ok": false, "error": .string(error.description)])
        case .success(.status):
            return RemoteRequest.encode(RemoteRequest.reply(status()))
        case .success(.recordingStatus):
            return RemoteRequest.encode(RemoteRequest.recordingReply(status()))
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
