import Foundation
import Glibc
import GstCamera
import LinuxSystem
import Reports
import Screen
import Serve
import Synchronization

/// `gstcam serve`: one camera session served over RTSP and the web, while photos keep working.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Serve the camera: RTSP for players and recorders, a web camera page."
    static let usage = """
    USAGE: gstcam serve [--rtsp PORT] [--http PORT] [--bind ADDR] [--token TOKEN | --user USER:PASSWORD] [options]

    Opens the camera once and serves it until Ctrl-C: H.264 over RTSP (rtsp://ADDR:PORT/camera; one encode
    shared by every client, over UDP or TCP) and a web camera page with live view, shutter and zoom, and a JSON
    API (docs/serve.md). Encoding happens only while someone watches. While it serves, `gstcam capture` for the
    same camera takes its photo through it. Prints the URLs when ready (JSON lines with --json). When the camera
    is unplugged or fails, the servers stay up and the page says why; serving resumes when the camera is back.

    OPTIONS:
      --rtsp PORT            The RTSP port (default 8554; 0: any free port; off: no RTSP).
      --http PORT            The web page's port (default 8080; 0: any free port; off: no web page).
      --bind ADDR            The address to listen on (default 127.0.0.1: this machine only). Any other
                             address needs --token or --user: no camera opens on a network by accident.
      --path NAME            The RTSP path (default camera).
      --token TOKEN          Viewers must give this token: RTSP user "token" with TOKEN as password (digest);
                             on the web `Authorization: Bearer TOKEN`, basic authentication, or ?token=TOKEN.
      --user USER:PASSWORD   Viewers must log in (RTSP digest, HTTP basic authentication).
      --bitrate KBPS         The H.264 bitrate in kbit/s (default 2000).
      --publish URL          Also push the stream to a media server that fans it out: rtsp://… (ANNOUNCE/RECORD,
                             e.g. MediaMTX) or rtmp://…; retried with back-off while the server is away.
      --max-viewers N        Viewers at once, per server (default 16): one more gets 503 Service Unavailable.
      --tls-cert FILE, --tls-key FILE
                             Serve the web page over HTTPS with this PEM certificate and key (RTSP stays plain).
      --duration SECONDS     Stop after this long (default: until Ctrl-C).
      --json                 Print the URLs and events as JSON lines.
    \(CameraOptions.help)
    """

    static func run(_ arguments: inout Arguments) async throws {
        var camera = try CameraOptions(&arguments)
        var serve = ServeConfiguration()
        serve.rtspPort = try port(&arguments, "--rtsp", default: 8554)
        serve.httpPort = try port(&arguments, "--http", default: 8080)
        if let address = try arguments.option("--bind") { serve.address = address }
        if let path = try arguments.option("--path") { serve.path = path }
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
        if let problem = serve.problem() { throw UsageError(problem) }

        let choice = try camera.modeChoice(for: .preview)
        camera.configuration = choice.configuration
        var session = try CameraSession(configuration: choice.configuration)
        let cameraOperator = CameraOperator(session: session)
        let server = CameraServer(operator: cameraOperator, configuration: serve) { event in
            report(json ? JSONOutput.line(EventRecord(event: "publish", message: event)) : "gstcam: \(event)", json: json)
        }
        let current = CurrentSession(session)
        let stop: @Sendable () -> Void = { current.stop() }
        let interrupt = Interrupt(stop)
        var events = session.events()
        do {
            try await session.start()
        } catch where interrupt.didFire {
            throw ExitRequest(status: .interrupted)
        }
        defer { current.session.stop() }
        try await camera.adjust(session)
        try server.start()
        defer { server.stop() }
        // Other gstcam commands for this camera (capture, preview --send) reach this session through its socket.
        var remote: CameraRemoteServer?
        if let path = RemoteSocketPath.path(for: choice.configuration) {
            remote = try? CameraRemoteServer.start(path: path, status: { cameraOperator.status() },
                                                   perform: { await cameraOperator.perform($0) })
        }
        defer { remote?.stop() }
        announce(server, json: json)
        let stopper = duration.map { seconds in
            Task {
                try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                stop()
            }
        }
        defer { stopper?.cancel() }
        while true {
            for await event in events {
                if case .photoSaved(let photo) = event {
                    print(json ? JSONOutput.line(EventRecord(event: "photo", message: photo.path)) : "Saved \(photo.path)")
                    fflush(nil)
                }
            }
            guard !current.isStopping, case .failed(let failure) = session.state else { break }
            // The camera failed (unplugged, busy, its driver failing): the web page shows why while the servers
            // stay up, and serving resumes by itself when the camera is back.
            report(json ? JSONOutput.line(EventRecord(event: "disconnected", message: failure.description))
                        : "gstcam: \(failure) Serving resumes when the camera is back.", json: json)
            guard let next = await nextSession(choice.configuration, current: current) else { break }
            session = next.session
            events = next.events
            current.session = next.session
            if current.isStopping { next.session.stop(); break }
            cameraOperator.use(next.session)
            try server.follow(next.session)
            report(json ? JSONOutput.line(EventRecord(event: "reconnected", message: next.session.device))
                        : "Camera back: serving \(next.session.device ?? "it") again", json: json)
        }
        if interrupt.didFire { throw ExitRequest(status: .interrupted) }
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

    private static func announce(_ server: CameraServer, json: Bool) {
        if json {
            print(JSONOutput.line(ServingRecord(rtsp: server.rtspURL, http: server.httpURL)))
        } else {
            if let url = server.rtspURL { print("RTSP: \(url)") }
            if let url = server.httpURL { print("Web: \(url)") }
        }
        fflush(nil)
    }
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
