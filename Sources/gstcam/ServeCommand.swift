import Foundation
import Glibc
import GstCamera
import LinuxSystem
import Reports
import Screen
import Serve

/// `gstcam serve`: one camera session served over RTSP and the web, while photos keep working.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Serve the camera: RTSP for players and recorders, a web camera page."
    static let usage = """
    USAGE: gstcam serve [--rtsp PORT] [--http PORT] [--bind ADDR] [--token TOKEN | --user USER:PASSWORD] [options]

    Opens the camera once and serves it until Ctrl-C: H.264 over RTSP (rtsp://ADDR:PORT/camera; one encode
    shared by every client, over UDP or TCP) and a web camera page with live view, shutter and zoom, and a JSON
    API (docs/serve.md). Encoding happens only while someone watches. While it serves, `gstcam capture` for the
    same camera takes its photo through it. Prints the URLs when ready (JSON lines with --json).

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
        let duration = try arguments.double("--duration", minimum: 0)
        let json = arguments.flag("--json")
        try arguments.finish()
        if token != nil, user != nil { throw UsageError("give either --token or --user, not both") }
        serve.credentials = token ?? user
        if serve.rtspPort == nil, serve.httpPort == nil { throw UsageError("--rtsp off and --http off leave nothing to serve") }
        if let problem = serve.problem() { throw UsageError(problem) }

        let choice = try camera.modeChoice(for: .preview)
        camera.configuration = choice.configuration
        let session = try CameraSession(configuration: choice.configuration)
        let cameraOperator = CameraOperator(session: session)
        let server = CameraServer(operator: cameraOperator, configuration: serve)
        let interrupt = Interrupt { session.stop() }
        let events = session.events()
        do {
            try await session.start()
        } catch where interrupt.didFire {
            throw ExitRequest(status: .interrupted)
        }
        defer { session.stop() }
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
                session.stop()
            }
        }
        defer { stopper?.cancel() }
        for await event in events {
            if case .photoSaved(let photo) = event {
                print(json ? JSONOutput.line(EventRecord(event: "photo", message: photo.path)) : "Saved \(photo.path)")
                fflush(nil)
            }
        }
        if interrupt.didFire { throw ExitRequest(status: .interrupted) }
        if case .failed(let failure) = session.state { throw failure }
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
