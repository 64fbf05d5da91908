import Foundation
import Glibc
import GstCamera
import GstcamCommands
import LinuxSystem
import Reports
import Screen
import Serve
import Synchronization

/// `gstcam serve`: one camera session served over RTSP and the web, while photos keep working. `gstcam` runs it
/// through `gstcam-serve` (ServeLauncher).
enum ServeCommand: Command {
    static let name = ServeHelp.name
    static let summary = ServeHelp.summary
    static let usage = ServeHelp.usage

    static func run(_ arguments: inout Arguments) async throws {
        // Each --camera (or --device) is one camera served; several are served side by side, each at its path.
        let devices = try arguments.options("--device", "--camera")
        let paths = try arguments.options("--path")
        var camera = try CameraOptions(&arguments)
        var serve = ServeConfiguration()
        serve.rtspPort = try port(&arguments, "--rtsp", default: 8554)
        serve.httpPort = try port(&arguments, "--http", default: 8080)
        if let address = try arguments.option("--bind") { serve.address = address }
        let token = try arguments.option("--token", as: "a token (not empty)") { ServeCredentials(token: $0) }
        let user = try arguments.option("--user", as: "USER:PASSWORD") { ServeCredentials(userAndPassword: $0) }
        if let bitrate = try arguments.int("--bitrate", minimum: 16) { serve.kbps = bitrate }
        if let viewers = try arguments.int("--max-viewers", minimum: 1) { serve.maxViewers = viewers }
        serve.publish = try arguments.option("--publish")
        let certificate = try arguments.option("--tls-cert"), key = try arguments.option("--tls-key")
        if (certificate == nil) != (key == nil) { throw UsageError("--tls-cert and --tls-key go together") }
        if let certificate, let key { serve.tls = ServeConfiguration.TLSFiles(certificate: certificate, key: key) }
        let duration = try arguments.double("--duration", minimum: 0)
        let json = arguments.flag("--json")
        try arguments.finish()
        if token != nil, user != nil { throw UsageError("give either --token or --user, not both") }
        serve.credentials = token ?? user
        if serve.rtspPort == nil, serve.httpPort == nil, serve.publish == nil {
            throw UsageError("--rtsp off and --http off (without --publish) leave nothing to serve")
        }
        if paths.count > max(1, devices.count) || (devices.count > 1 && !paths.isEmpty && paths.count != devices.count) {
            throw UsageError("give one --path per camera (\(max(1, devices.count)) camera\(devices.count > 1 ? "s" : ""), \(paths.count) --path)")
        }
        if let invalid = paths.first(where: { !ServeConfiguration.isPlainName($0) }) {
            throw UsageError("the RTSP path \"\(invalid)\" must be a plain name (letters, digits, - _ .)")
        }
        if let path = paths.first { serve.path = path }
        if let problem = serve.problem() { throw UsageError(problem) }

        let all = ServedSessions()
        let interrupt = Interrupt { all.stopAll() }
        defer { for session in all.sessions { session.current.session.stop() } }
        for device in devices.isEmpty ? [camera.configuration.device] : devices.map(Optional.some) {
            camera.configuration.device = device
            let choice = try camera.modeChoice(for: .preview)
            var options = camera
            options.configuration = choice.configuration
            let session = try CameraSession(configuration: choice.configuration, camera: choice.camera)
            let one = ServedSession(configuration: choice.configuration, session: session)
            all.append(one)
            do {
                try await session.start()
            } catch where interrupt.didFire {
                throw ExitRequest(status: .interrupted)
            }
            try await options.adjust(session)
        }
        let served = all.sessions
        let names = served.count == 1 ? [serve.path]
            : paths.isEmpty ? served.map { ServedCamera.defaultName(device: $0.session.device ?? $0.configuration.device) } : paths
        let server = CameraServer(cameras: zip(names, served).map { ServedCamera(name: $0, operator: $1.cameraOperator) },
                                  configuration: serve) { event in
            report(json ? JSONOutput.line(EventRecord(event: "publish", message: event)) : "gstcam: \(event)", json: json)
        }
        try server.start()
        defer { server.stop() }
        // Other gstcam commands for a served camera (capture, preview --send) reach its session through its socket.
        var remotes: [CameraRemoteServer] = []
        for one in served {
            if let path = RemoteSocketPath.path(for: one.configuration),
               let remote = try? CameraRemoteServer.start(path: path, status: { one.cameraOperator.status() },
                                                          perform: { await one.cameraOperator.perform($0) }) {
                remotes.append(remote)
            }
        }
        defer { for remote in remotes { remote.stop() } }
        announce(server, served: served, json: json)
        let stopper = duration.map { seconds in
            Task {
                try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                all.stopAll()
            }
        }
        defer { stopper?.cancel() }
        await withTaskGroup(of: Void.self) { group in
            for (name, one) in zip(names, served) {
                group.addTask { await keepServing(one, name: served.count == 1 ? nil : name, server: server, json: json) }
            }
        }
        if interrupt.didFire { throw ExitRequest(status: .interrupted) }
    }

    /// Reports one camera's photos until its session ends; when the camera fails (unplugged, busy, its driver
    /// failing) the web page shows why while the servers stay up, and serving resumes when the camera is back.
    /// `name` tells the camera apart in messages when several are served.
    private static func keepServing(_ served: ServedSession, name: String?, server: CameraServer, json: Bool) async {
        var session = served.current.session
        var events = served.events
        let prefix = name.map { "\($0): " } ?? ""
        while true {
            for await event in events {
                if case .photoSaved(let photo) = event {
                    print(json ? JSONOutput.line(EventRecord(event: "photo", message: photo.path)) : "Saved \(photo.path)")
                    fflush(nil)
                }
            }
            guard !served.current.isStopping, case .failed(let failure) = session.state else { return }
            report(json ? JSONOutput.line(EventRecord(event: "disconnected", message: prefix + failure.description))
                        : "gstcam: \(prefix)\(failure) Serving resumes when the camera is back.", json: json)
            guard let next = await nextSession(served.configuration, current: served.current) else { return }
            session = next.session
            events = next.events
            served.current.session = next.session
            if served.current.isStopping { next.session.stop(); return }
            served.cameraOperator.use(next.session)
            do {
                try server.follow(next.session, camera: name)
            } catch {
                report(json ? JSONOutput.line(EventRecord(event: "error", message: prefix + "\(error)")) : "gstcam: \(prefix)\(error)", json: json)
                return
            }
            report(json ? JSONOutput.line(EventRecord(event: "reconnected", message: next.session.device))
                        : "Camera back: serving \(next.session.device ?? "it") again", json: json)
        }
    }

    /// A new running session on the same camera, tried every half second until it starts or serving stops.
    private static func nextSession(_ configuration: CameraConfiguration, current: CurrentSession) async
        -> (session: CameraSession, events: AsyncStream<CameraEvent>)? {
        while !current.isStopping {
            try? await Task.sleep(for: .milliseconds(500))
            guard let session = try? CameraSession(configuration: configuration) else { continue }
            let events = session.events()
            if (try? await session.start()) != nil { return (session, events) }
        }
        return nil
    }

    /// Events go to stdout with --json (scripts read them), to stderr otherwise.
    private static func report(_ line: String, json: Bool) {
        if json { print(line); fflush(nil) } else { Standard.error.write(line + "\n") }
    }

    /// --rtsp/--http: a port number, or off (nil).
    private static func port(_ arguments: inout Arguments, _ name: String, default value: Int) throws -> Int? {
        guard let text = try arguments.option(name) else { return value }
        if text == "off" { return nil }
        guard let port = Int(text), (0...65535).contains(port) else {
            throw UsageError("\(name): \"\(text)\" is not a port (0…65535) or off")
        }
        return port
    }

    private static func announce(_ server: CameraServer, served: [ServedSession], json: Bool) {
        let urls = server.rtspURLs
        if json {
            let cameras = zip(server.cameras, served).map { camera, one in
                ServedCameraRecord(name: camera.name, device: one.session.device, rtsp: urls.first { $0.name == camera.name }?.url)
            }
            print(JSONOutput.line(ServingRecord(rtsp: server.rtspURL, http: server.httpURL, cameras: cameras)))
        } else {
            for (name, url) in urls {
                print(urls.count == 1 ? "RTSP: \(url)" : "RTSP: \(url)  (\(served[urls.firstIndex { $0.name == name } ?? 0].session.device ?? name))")
            }
            if let url = server.httpURL { print("Web: \(url)") }
        }
        fflush(nil)
    }
}

/// One camera `gstcam serve` serves: its configuration, the session serving it now, its operator and the first
/// session's events.
private final class ServedSession: Sendable {
    let configuration: CameraConfiguration
    let current: CurrentSession
    let cameraOperator: CameraOperator
    let events: AsyncStream<CameraEvent>

    init(configuration: CameraConfiguration, session: CameraSession) {
        self.configuration = configuration
        current = CurrentSession(session)
        cameraOperator = CameraOperator(session: session)
        events = session.events()
    }

    var session: CameraSession { current.session }
}

/// Every camera `gstcam serve` opened so far, for Ctrl-C and --duration to stop.
private final class ServedSessions: Sendable {
    private let list = Mutex<[ServedSession]>([])

    var sessions: [ServedSession] { list.withLock { $0 } }
    func append(_ session: ServedSession) { list.withLock { $0.append(session) } }
    func stopAll() { for session in sessions { session.current.stop() } }
}

/// The session `gstcam serve` serves now (a new one after the camera came back), and whether it is stopping.
private final class CurrentSession: Sendable {
    private struct State {
        var session: CameraSession
        var stopping = false
    }

    private let state: Mutex<State>

    init(_ session: CameraSession) { state = Mutex(State(session: session)) }

    var session: CameraSession {
        get { state.withLock { $0.session } }
        set { state.withLock { $0.session = newValue } }
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Ctrl-C or --duration: the session stops, and waiting for a camera that went away ends.
    func stop() {
        state.withLock { state in
            state.stopping = true
            return state.session
        }.stop()
    }
}
