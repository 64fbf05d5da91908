import Dispatch
import Glibc
import GstCamera
import Synchronization

/// Where `gstcam preview` shows the camera.
enum PreviewOutput: Equatable {
    /// A window made by a GStreamer video sink, with the camera screen drawn into it.
    case window(sink: String)
    /// Half-block characters in this terminal.
    case terminal
    /// Nothing shown: figures only.
    case none

    /// `--sink` as given, else a window when there is an X or Wayland display, else the terminal when both
    /// stdin and stdout are terminals, else figures only.
    init(sink: String?, environment: [String: String]) {
        switch sink {
        case "terminal": self = .terminal
        case "none": self = .none
        case let sink?: self = .window(sink: sink)
        case nil:
            if environment["DISPLAY"].map({ !$0.isEmpty }) == true || environment["WAYLAND_DISPLAY"].map({ !$0.isEmpty }) == true {
                self = .window(sink: "autovideosink")
            } else if isatty(0) != 0 && isatty(1) != 0 {
                self = .terminal
            } else {
                self = .none
            }
        }
    }
}

/// What shows the camera screen and delivers the user's input: the window (CameraScreen) or the terminal.
protocol ScreenSurface: Sendable {
    func inputs() -> AsyncStream<ScreenInput>
    func setStatus(_ text: String)
    func showMessage(_ text: String, for duration: Duration)
    func showFocusSquare(at point: NormalizedPoint)
}

extension CameraScreen: ScreenSurface {}

/// Runs the camera screen until quit, a closed window, the duration, a signal, or (as a picker) a photo.
final class PreviewScreen: Sendable {
    enum Ending: Equatable { case quit, windowClosed, photo(Photo) }

    let session: CameraSession
    let cameraOperator: CameraOperator
    let surface: (any ScreenSurface)?
    let picker: Bool
    let json: Bool
    private let ending = Mutex<Ending?>(nil)
    /// The socket other commands reach this screen through; it follows camera switches.
    let server = Mutex<CameraRemoteServer?>(nil)

    init(session: CameraSession, cameraOperator: CameraOperator, surface: (any ScreenSurface)?, picker: Bool, json: Bool) {
        self.session = session
        self.cameraOperator = cameraOperator
        self.surface = surface
        self.picker = picker
        self.json = json
    }

    /// Ends the screen once (later endings are ignored) and stops the session.
    private func end(_ reason: Ending) {
        let first = ending.withLock { ending in
            guard ending == nil else { return false }
            ending = reason
            return true
        }
        if first { session.stop() }
    }

    var endedBy: Ending? { ending.withLock { $0 } }

    /// One user input: a key, a click, the wheel, or the window closing.
    func handle(_ input: ScreenInput) async {
        switch input {
        case let .click(point):
            await perform(.focus(at: point))
        case let .scroll(steps, _):
            let factor = session.zoom.factor * pow(1.25, steps)
            await perform(.zoom(factor: factor))
        case let .key(name):
            guard let action = CameraAction(key: name) else { return }
            await perform(action)
        case let .windowClosed(reason):
            if !reason.isEmpty, !reason.contains("window was closed"), reason != "Quit requested" { Standard.error.write("gstcam: the window failed: \(reason)\n") }
            end(.windowClosed)
        }
    }

    /// Does an action and shows what it did; errors also go to stderr.
    @discardableResult
    func perform(_ action: CameraAction) async -> CameraActionOutcome {
        if action == .quit {
            end(.quit)
            return CameraActionOutcome(message: "Quit")
        }
        if case let .focus(point) = action { surface?.showFocusSquare(at: point) }
        let outcome = await cameraOperator.perform(action)
        if action == .nextCamera, !outcome.isError, let device = session.device, let server = server.withLock({ $0 }) {
            server.move(to: RemoteSocketPath.path(forDevice: device))
        }
        surface?.showMessage(outcome.message, for: outcome.isError ? .seconds(3) : .milliseconds(1500))
        surface?.setStatus(cameraOperator.statusLine())
        if outcome.isError {
            Standard.error.write("gstcam: \(outcome.message)\n")
        } else if let photo = outcome.photo, !picker {
            if json {
                print(#"{"saved":"\#(jsonEscaped(photo.path))","width":\#(photo.width),"height":\#(photo.height)}"#)
            } else {
                print("Saved \(photo.path) (\(photo.width)x\(photo.height))")
            }
            fflush(nil)
        }
        if picker, let photo = outcome.photo { end(.photo(photo)) }
        return outcome
    }

    /// The loop: the status line twice a second, figures once a second (unless a picker or the terminal
    /// draws on stdout), until something ends the screen.
    func run(duration: Double?, printFigures: Bool) async {
        let inputTask = surface.map { surface in
            Task { for await input in surface.inputs() { await self.handle(input) } }
        }
        defer { inputTask?.cancel() }
        let clock = ContinuousClock()
        let started = clock.now
        var lastFigures = started
        let deadline = duration.map { started + .milliseconds(Int($0 * 1000)) }
        cameraOperator.measureFrameRate()
        while case .running = session.state {
            try? await Task.sleep(for: .milliseconds(250))
            guard case .running = session.state else { break }
            let now = clock.now
            if now - lastFigures >= .seconds(1) {
                let fps = cameraOperator.measureFrameRate()
                surface?.setStatus(cameraOperator.statusLine())
                if printFigures { printFigure(elapsed: (now - started).seconds, fps: fps) }
                lastFigures = now
            } else if lastFigures == started {
                surface?.setStatus(cameraOperator.statusLine())
            }
            if let deadline, now >= deadline { break }
        }
    }

    private func printFigure(elapsed: Double, fps: Double) {
        func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
        if json {
            print(#"{"seconds":\#(rounded(elapsed)),"frames":\#(session.frameCount),"fps":\#(rounded(fps))}"#)
        } else {
            print("\(rounded(elapsed)) s  frames \(session.frameCount)  fps \(rounded(fps))")
        }
        // Line by line even into a pipe or file: a script follows the figures while the preview runs.
        fflush(nil)
    }
}

/// Runs a handler on a signal (e.g. SIGUSR1 = take a photo, as rpicam does) for as long as it is kept.
final class SignalAction: Sendable {
    // DispatchSourceSignal is documented thread-safe; it is only kept alive and cancelled here.
    nonisolated(unsafe) private let source: any DispatchSourceSignal

    init(_ number: Int32, _ handler: @escaping @Sendable () -> Void) {
        signal(number, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
    }

    deinit { source.cancel() }
}
