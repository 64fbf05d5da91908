import Glibc
import CameraErrors
import Cameras
import LinuxSystem
import MediaFiles
import Reports
import Session

/// How a camera screen is to run: where it shows the camera, for how long, and what it prints.
public struct ScreenLaunch: Sendable {
    /// The session's configuration with its mode chosen (and the window sink set for `.window`).
    public var configuration: CameraConfiguration
    public var output: PreviewOutput
    /// Seconds until the screen ends by itself; nil: until quit, a closed window or a signal.
    public var duration: Double?
    /// JSON lines instead of text for figures, photos and events.
    public var json: Bool
    /// The screen as a photo picker: the first photo ends it (`Ending.photo`).
    public var picker: Bool
    public var library: PhotoLibrary
    /// Switch to the next camera this often (seconds), printing each switch.
    public var switchEvery: Double?
    /// Wait for a camera that goes away (else end with its failure).
    public var waitsForCamera: Bool
    /// When photos fire the flash, until `l` or the socket changes it.
    public var flash: FlashMode
    /// Seconds the shutter key counts down first (0: none), until `T` changes it.
    public var timer: Int
    /// `r` saves a recording that begins this long before the key (the video is kept all along).
    public var preRoll: Duration?
    /// The configuration with its mode chosen, for a camera whose modes could not be read at launch (no
    /// permission yet): called each time the camera is tried again; nil when the mode is chosen already.
    public var chooseMode: (@Sendable () throws -> CameraConfiguration)?
    /// The camera as probed to choose the mode (`ModeChoice.camera`): the session's first start uses it instead of
    /// opening and probing the camera again.
    public var camera: Camera?

    public init(configuration: CameraConfiguration, output: PreviewOutput, duration: Double? = nil, json: Bool = false,
                picker: Bool = false, library: PhotoLibrary = PhotoLibrary(), switchEvery: Double? = nil,
                waitsForCamera: Bool = true, flash: FlashMode = .off, timer: Int = 0, preRoll: Duration? = nil) {
        self.preRoll = preRoll
        self.flash = flash
        self.timer = timer
        self.configuration = configuration
        self.output = output
        self.duration = duration
        self.json = json
        self.picker = picker
        self.library = library
        self.switchEvery = switchEvery
        self.waitsForCamera = waitsForCamera
    }
}

extension CameraScreen {
    /// Builds the screen for `launch`: its session, the window or terminal view, the operator, the camera list.
    /// Nothing is opened yet; `present` starts it.
    public static func make(_ launch: ScreenLaunch) throws -> CameraScreen {
        var configuration = launch.configuration
        if case let .window(sink) = launch.output { configuration.displaySink = sink }
        let session = try CameraSession(configuration: configuration, camera: launch.camera)
        let window = launch.output == .none || launch.output == .terminal ? nil : CameraWindow(session: session)
        let terminal: TerminalView? = launch.output == .terminal ? try TerminalView(session: session) : nil
        let cameraOperator = CameraOperator(session: session, library: launch.library, preRoll: launch.preRoll)
        cameraOperator.flashMode = launch.flash
        cameraOperator.timerSeconds = launch.timer
        return CameraScreen(cameraOperator: cameraOperator,
                            surface: window ?? terminal, configuration: configuration, monitor: CameraMonitor(detail: .identity),
                            waitsForCamera: launch.waitsForCamera, picker: launch.picker, json: launch.json,
                            chooseMode: launch.chooseMode)
    }

    /// Starts the camera, then `adjust` (the command's zoom, torch, focus…), opens the socket other commands reach
    /// the screen through, and runs until the screen ends; returns how it ended (nil after `stop()`). Throws the
    /// start's failure, or the camera failure the screen ended with. SIGUSR1 takes a photo meanwhile.
    public func present(_ launch: ScreenLaunch, adjust: (CameraSession) async throws -> Void) async throws -> Ending? {
        let terminal = surface as? TerminalView
        let shutter = SignalAction(SIGUSR1) { Task { await self.perform(.capture()) } }
        // SIGUSR2 starts and stops a recording, as `r` does.
        let recorder = SignalAction(SIGUSR2) { Task { await self.perform(.toggleRecording) } }
        defer {
            stop()
            terminal?.restore()
            _ = shutter
            _ = recorder
        }
        let inputs = handleInputs()
        defer { inputs?.cancel() }
        var terminalStarted = false
        do {
            try await session.start()
        } catch let error as CameraError {
            // A window or the terminal waits for a camera it may not open yet (busy, no permission) as for one
            // that went away, with the message and the fix on screen.
            if terminal != nil, Self.waitsAtLaunch(for: error), waitsForCamera {
                terminal?.start()
                terminalStarted = true
            }
            guard await waitAtLaunch(after: error, duration: launch.duration) else {
                // q, Esc or the window closed while waiting is an ending like any other; the duration running
                // out (or a signal) with the camera still refused is the failure.
                if let ending = endedBy { return ending }
                throw error
            }
        }
        try await adjust(session)
        let server = startServer()
        defer { server?.stop() }
        if !terminalStarted { terminal?.start() }
        let cycling = launch.switchEvery.map { seconds in
            Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                    let outcome = await self.perform(.nextCamera)
                    if !outcome.isError, launch.output != .terminal {
                        print(launch.json ? JSONOutput.line(EventRecord(event: "switch", message: outcome.message)) : outcome.message)
                    }
                }
            }
        }
        await run(duration: launch.duration, printFigures: !launch.picker && launch.output != .terminal)
        // No switch may begin on a session being stopped (it would fail with "not running").
        cycling?.cancel()
        stop()
        terminal?.restore()
        // The terminal view showed "Saved NAME" in its status line; the paths follow once its screen is gone.
        for photo in state.withLock({ $0.photosNotPrinted }) { printSaved(photo) }
        if let failure = unrecoveredFailure { throw failure }
        return endedBy
    }

    /// The socket other gstcam commands for this camera reach the screen through; nil (with a message) when it
    /// cannot be opened — the screen works without it.
    private func startServer() -> CameraRemoteServer? {
        // The running session knows its camera's node: naming the socket after it needs no second probe of the
        // camera (the configuration may name it by index, id or name).
        guard let path = session.device.map({ RemoteSocketPath.path(forDevice: $0) })
                ?? RemoteSocketPath.path(for: configuration) else { return nil }
        do {
            let server = try CameraRemoteServer.start(path: path, status: { self.cameraOperator.status() },
                                                      perform: { await self.perform($0) })
            self.server.withLock { $0 = server }
            return server
        } catch {
            Standard.error.write("gstcam: other commands cannot reach this preview: \(error)\n")
            return nil
        }
    }
}
