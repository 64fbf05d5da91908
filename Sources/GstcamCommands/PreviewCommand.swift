import Glibc
import GstCamera
import LinuxSystem
import Reports
import Screen

/// `gstcam preview`: the camera screen: a window (click to focus, wheel to zoom, keys), the terminal, or figures.
enum PreviewCommand: Command {
    static let name = "preview"
    static let summary = "Show the camera live: a window or the terminal, with keys, click to focus, wheel to zoom."
    static let usage = """
    USAGE: gstcam preview [--device CAMERA] [--pipeline FILE] [--sink ELEMENT|terminal|none] [--duration SECONDS] [options]

    Shows the camera in a window when there is a display, else in the terminal (half-block characters), with a
    status line (camera, size, measured fps, zoom, torch, focus mode). Prints frame figures once a second
    (not in the terminal view). While it runs, `gstcam capture` and `kill -USR1 PID` take photos through it.
    When the camera is unplugged or fails, the screen says "Camera disconnected — waiting for it" and resumes
    by itself when the same camera is back; cameras plugged in meanwhile are announced and reached with c.
    With --duration, a camera still gone at the end makes the exit status 1.

    KEYS (window and terminal):
    \(CameraAction.keyHelp)

    OPTIONS:
      --sink ELEMENT         Where to show the camera: a GStreamer video sink (autovideosink, ximagesink, …),
                             terminal, or none. Default: a window when $WAYLAND_DISPLAY or $DISPLAY answers
                             (waylandsink; xvimagesink, ximagesink or glimagesink, the first that opens it),
                             else terminal on a terminal, else none. A display that is set but does not answer
                             gives the terminal on a terminal and an error otherwise.
      --duration SECONDS     Stop after this long (default: until q, Esc, the window closing, or Ctrl-C).
      --switch-every SECONDS Switch to the next camera this often (a demo and a soak test); each switch is
                             printed with the time to the new camera's first frame.
      --flash [MODE]         The flash mode photos start with: off (default), on, auto (fires when the
                             picture is dark); l cycles it.
      --pre SECONDS          Keep the last SECONDS of video in memory all along: r (or SIGUSR2) then saves a
                             recording that begins SECONDS before the key (from the keyframe before; at most a
                             second more). The status line says "last N s kept" while it waits.
      --no-wait              Exit (status 1, with what happened) when the camera goes away instead of waiting
                             for it to come back.
      --json                 Print the figures (and saved photos) as JSON lines.
      --send REQUEST         Send one request to the camera screen already running for this camera and print
                             its reply, e.g. '{"command":"zoom","factor":2}' (protocol: docs/camera-screen.md).
                             Exit status 1 when it reports an error or no screen runs for the camera.
    \(CameraOptions.help)
    """

    static func run(_ arguments: inout Arguments) async throws {
        var camera = try CameraOptions(&arguments)
        let sink = try arguments.option("--sink")
        let duration = try arguments.double("--duration", minimum: 0)
        let json = arguments.flag("--json")
        let send = try arguments.option("--send")
        let switchEvery = try arguments.option("--switch-every", as: "a number of seconds > 0") { Double($0).flatMap { $0 > 0 ? $0 : nil } }
        let noWait = arguments.flag("--no-wait")
        let pre = try arguments.option("--pre", as: "a number of seconds from 0.1 to 600") { Double($0).flatMap { $0 >= 0.1 && $0 <= 600 ? $0 : nil } }
        let flash = try arguments.option("--flash", values: FlashMode.allCases.map(\.rawValue), bare: "on").flatMap(FlashMode.init(rawValue:))
        try arguments.finish()
        if let send { return try ScreenRemote.send(send, configuration: camera.configuration) }
        // GStreamer starts, and loads the pipeline's plugins, while the display is checked and the camera probed
        // (issue 13; as `gstcam capture` does).
        CameraSession.startGStreamerEarly(for: camera.configuration)
        let output = try PreviewOutput.choose(sink: sink, environment: ProcessEnvironment.current())
        _ = try await runScreen(camera: &camera, output: output, duration: duration, json: json, picker: false,
                                switchEvery: switchEvery, waitsForCamera: !noWait, flash: flash ?? .off,
                                preRoll: pre.map { .milliseconds(Int($0 * 1000)) })
    }

    /// Runs the screen; returns how it ended. Throws the session's failure, or exit 130 after Ctrl-C.
    static func runScreen(camera: inout CameraOptions, output: PreviewOutput, duration: Double?, json: Bool,
                          picker: Bool, library: PhotoLibrary = PhotoLibrary(),
                          switchEvery: Double? = nil, waitsForCamera: Bool = true, flash: FlashMode = .off, timer: Int = 0,
                          preRoll: Duration? = nil) async throws -> CameraScreen.Ending? {
        if case let .window(sink) = output { camera.configuration.displaySink = sink }
        let configuration: CameraConfiguration
        var probed: Camera?
        var chooseLater = false
        do {
            let choice = try camera.modeChoice(for: .preview)
            if json, choice.mode != nil, !picker, output != .terminal {
                print(JSONOutput.line(EventRecord(event: "mode", mode: ModeRecord(choice))))
            }
            configuration = choice.configuration
            probed = choice.camera
        } catch CameraError.permissionDenied where waitsForCamera && output != .none {
            // The screen opens anyway, with the error view, and chooses the mode once the camera may be opened.
            configuration = camera.configuration
            chooseLater = true
        }
        var launch = ScreenLaunch(configuration: configuration, output: output, duration: duration, json: json,
                                  picker: picker, library: library, switchEvery: switchEvery, waitsForCamera: waitsForCamera,
                                  flash: flash, timer: timer, preRoll: preRoll)
        launch.camera = probed
        if chooseLater {
            let later = camera
            launch.chooseMode = { try later.modeChoice(for: .preview).configuration }
        }
        let screen = try CameraScreen.make(launch)
        let interrupt = Interrupt { screen.stop() }
        let options = camera
        do {
            let ending = try await screen.present(launch) { session in try await options.adjust(session) }
            if interrupt.didFire { throw ExitRequest(status: .interrupted) }
            return ending
        } catch where interrupt.didFire {
            throw ExitRequest(status: .interrupted)
        }
    }
}
