import Dispatch
import Glibc

import Synchronization
import CameraErrors
import Cameras
import Controls
import LinuxSystem
import Reports
import Session

/// What shows the camera screen and delivers the user's input: the window (CameraWindow) or the terminal.
protocol ScreenView: Sendable {
    func inputs() -> AsyncStream<ScreenInput>
    func setStatus(_ text: String)
    func showMessage(_ text: String, for duration: Duration)
    func showFocusSquare(at point: NormalizedPoint)
    /// A message that stays until replaced or removed (nil): the camera is gone and the screen waits for it.
    func showLastingMessage(_ text: String?)
    /// Shows `session` from now on; called before that session starts.
    func follow(_ session: CameraSession)
    /// The self-timer's seconds left, large in the middle of the picture; nil removes them.
    func showCountdown(_ seconds: Int?)
    /// The control bar's settings (window only; CameraScreen+ControlBar.swift has the defaults).
    func showControls(_ settings: ControlBar.Settings)
    /// The last photo, small, in a corner (the window's control bar, the terminal's top right).
    func showLastPhoto(_ thumbnail: PhotoThumbnail)
    /// The shutter's animation for a photo just taken.
    func showShutter()
    /// `h`: hides or shows the control bar; nil where there is none.
    func toggleControls() -> Bool?
    /// The full-window error view while the camera is gone; nil removes it.
    func showError(_ view: ErrorView?)
    /// Shows `session` again, still running, after another one that was tried in its place failed to start (the
    /// waiting picture after a camera that is still busy); a view that follows frames only needs nothing.
    func showAgain(_ session: CameraSession)
    /// A code the scan mode just read, highlighted for a moment (window only; the status line says it everywhere).
    func showCode(_ highlight: ScanHighlight)
}

extension CameraWindow: ScreenView {
    public func follow(_ session: CameraSession) { show(session) }
}

/// Runs the camera screen until quit, a closed window, the duration, a signal, or (as a picker) a photo. When
/// the camera fails while the screen runs (unplugged, stalled, the driver gave up) the screen says so and waits
/// for the same camera to come back, then shows it again on a new session (CameraScreen+Waiting.swift).
public final class CameraScreen: Sendable {
    public enum Ending: Equatable, Sendable { case quit, windowClosed, photo(Photo) }

    let cameraOperator: CameraOperator
    let surface: (any ScreenView)?
    let picker: Bool
    let json: Bool
    /// What a session on a camera that came back is made from (the device is set to where it is now).
    let configuration: CameraConfiguration
    /// Cameras plugged in and unplugged while the screen runs.
    let monitor: CameraMonitor
    /// The monitor's changes from the screen's making on (a camera plugged in while the camera starts counts too).
    private let cameraChanges: AsyncStream<CameraChange>
    /// Whether a camera that goes away is waited for (else the screen ends with its failure).
    let waitsForCamera: Bool
    /// ScreenLaunch.chooseMode: the mode is chosen when the camera may be opened (nil: `configuration` has it).
    let chooseMode: (@Sendable () throws -> CameraConfiguration)?
    /// The socket other commands reach this screen through; it follows camera switches.
    let server = Mutex<CameraRemoteServer?>(nil)

    struct State {
        var ending: Ending?
        /// Ctrl-C, SIGTERM: the screen ends without an ending of its own (the command exits 130).
        var stopRequested = false
        /// Set while the camera is gone: why, which camera the screen waits for, and whether `c` asked for
        /// another camera meanwhile.
        var waiting: (error: CameraError, camera: Camera, switchRequested: Bool)?
        /// The camera shown now (its identity is what the screen waits for when it fails).
        var camera: Camera?
        /// Sessions that are not the operator's but must stop with the screen: the waiting picture, a camera
        /// being restarted.
        var helpers: [ObjectIdentifier: CameraSession] = [:]
        /// The failure the screen ended with, when the camera never came back.
        var failure: CameraError?
        /// "No frames from … for N s" while the camera sends nothing.
        var stallNotice: String?
        /// Photos taken in the terminal view, printed when it has given the terminal back.
        var photosNotPrinted: [Photo] = []
        /// The self-timer counting down to a photo (Esc cancels it).
        var countdown: Task<Void, Never>?
        /// Code scanning (`s`): the scanner and the task showing its codes.
        var scanning: (scanner: CodeScanner, reader: Task<Void, Never>)?
        /// The photo viewer opened with `g` (CameraScreen+Viewer.swift), over the running camera.
        var viewer: PhotoViewer?
    }

    let state = Mutex(State())

    init(cameraOperator: CameraOperator, surface: (any ScreenView)?, configuration: CameraConfiguration,
         monitor: CameraMonitor, waitsForCamera: Bool = true, picker: Bool, json: Bool,
         chooseMode: (@Sendable () throws -> CameraConfiguration)? = nil) {
        self.chooseMode = chooseMode
        self.waitsForCamera = waitsForCamera
        self.cameraOperator = cameraOperator
        self.surface = surface
        self.configuration = configuration
        self.monitor = monitor
        cameraChanges = monitor.changes()
        self.picker = picker
        self.json = json
    }

    /// The session shown now.
    var session: CameraSession { cameraOperator.session }

    /// Ends the screen once (later endings are ignored) and stops its sessions.
    private func end(_ reason: Ending) {
        let first = state.withLock { state in
            guard state.ending == nil else { return false }
            state.ending = reason
            return true
        }
        if first { stopSessions() }
    }

    /// Ctrl-C or SIGTERM: stops every session of the screen; `run` returns.
    public func stop() {
        state.withLock { $0.stopRequested = true }
        stopSessions()
    }

    private func stopSessions() {
        state.withLock { $0.scanning }?.scanner.stop()
        state.withLock { $0.viewer }?.close()
        session.stop()
        for helper in state.withLock({ Array($0.helpers.values) }) { helper.stop() }
    }

    var endedBy: Ending? { state.withLock { $0.ending } }

    /// The camera failure that ended the screen (the camera did not come back before it ended), if any.
    var unrecoveredFailure: CameraError? {
        if case let .failed(error) = session.state, endedBy == nil { return error }
        return state.withLock { $0.ending == nil ? $0.failure : nil }
    }

    var isOver: Bool { state.withLock { $0.ending != nil || $0.stopRequested } }

    /// Handles the view's inputs until cancelled; nil without a view.
    func handleInputs() -> Task<Void, Never>? {
        surface.map { surface in
            Task { for await input in surface.inputs() { await self.handle(input) } }
        }
    }

    /// One user input: a key, a click, the wheel, or the window closing.
    func handle(_ input: ScreenInput) async {
        switch input {
        case let .click(point):
            await perform(.focus(at: point))
        case let .scroll(steps, _):
            let factor = session.zoom.factor * pow(1.25, steps)
            await perform(.zoom(factor: factor))
        case let .key(name):
            // Esc during a countdown cancels the photo, not the screen.
            if name == "Escape", cancelCountdown() { return }
            if name == ControlBar.hideKey, let shown = surface?.toggleControls() {
                surface?.showMessage(shown ? "Controls shown" : "Controls hidden (h shows them)", for: .milliseconds(1500))
                return
            }
            guard let action = CameraAction(key: name) else { return }
            if action == .capture(), cameraOperator.timerSeconds > 0 {
                startCountdown(cameraOperator.timerSeconds)
                return
            }
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
        if let waiting = state.withLock({ $0.waiting }) {
            if action == .nextCamera, let other = otherCamera(than: waiting.camera) {
                state.withLock { $0.waiting?.switchRequested = true }
                return CameraActionOutcome(message: "Switching to \(other.name) (\(other.path))")
            }
            let outcome = CameraActionOutcome(message: "\(Self.waitingMessage(for: waiting.error)) (\(waiting.camera.path))", isError: true)
            Standard.error.write("gstcam: \(outcome.message)\n")
            return outcome
        }
        if case let .focus(point) = action { surface?.showFocusSquare(at: point) }
        let outcome = switch action {
        case .toggleScan: toggleScan()
        case .openViewer: openViewer()
        case .closeViewer: closeViewer()
        default: await cameraOperator.perform(action)
        }
        if action == .nextCamera, !outcome.isError {
            // At once, not at the loop's next tick: the camera left behind may be unplugged within that second,
            // and must be announced, not taken for the shown one going away.
            noteCamera()
            if let device = session.device, let server = server.withLock({ $0 }) {
                server.move(to: RemoteSocketPath.path(forDevice: device))
            }
        }
        surface?.showMessage(outcome.message, for: outcome.isError ? .seconds(3) : .milliseconds(1500))
        refreshStatusAndControls()
        if let photo = outcome.photo { showTaken(photo) }
        if outcome.isError {
            // An action the screen's own ending cut short (a switch under way at the end of --duration, q
            // pressed during one) failed because of that ending, which is no error of the user's to read.
            if !isOver { Standard.error.write("gstcam: \(outcome.message)\n") }
        } else if let photo = outcome.photo, !picker {
            // Not onto the terminal view's screen: a line there would overwrite the status line and shift the picture.
            if surface is TerminalView {
                state.withLock { $0.photosNotPrinted.append(photo) }
            } else {
                printSaved(photo)
            }
        }
        if picker, let photo = outcome.photo { end(.photo(photo)) }
        return outcome
    }

    /// The self-timer: the seconds left on the screen, then the photo at zero (the frame current then). A second
    /// shutter press while it counts is ignored.
    func startCountdown(_ seconds: Int) {
        let started: Bool = state.withLock { state in
            guard state.countdown == nil else { return false }  // already counting
            state.countdown = Task {
                for left in stride(from: seconds, to: 0, by: -1) {
                    self.surface?.showCountdown(left)
                    try? await Task.sleep(for: .seconds(1))
                    if Task.isCancelled { break }
                }
                self.surface?.showCountdown(nil)
                let cancelled = Task.isCancelled
                self.state.withLock { $0.countdown = nil }
                if !cancelled { await self.perform(.capture()) }
            }
            return true
        }
        _ = started
    }

    /// Stops a running countdown (no photo); false when none runs.
    @discardableResult
    func cancelCountdown() -> Bool {
        guard let countdown = state.withLock({ state -> Task<Void, Never>? in
            defer { state.countdown = nil }
            return state.countdown
        }) else { return false }
        countdown.cancel()
        surface?.showCountdown(nil)
        surface?.showMessage("Self-timer cancelled", for: .milliseconds(1500))
        return true
    }

    /// Starts or stops reading codes from the session shown: each new code shows on the screen for 5 s and is
    /// printed (its text, or JSON) unless the terminal view holds stdout.
    func toggleScan() -> CameraActionOutcome {
        if let running = state.withLock({ state -> (scanner: CodeScanner, reader: Task<Void, Never>)? in
            defer { state.scanning = nil }
            return state.scanning
        }) {
            running.scanner.stop()
            running.reader.cancel()
            return CameraActionOutcome(message: "Scanning off")
        }
        do {
            let scanner = try CodeScanner.start(on: session)
            let codes = scanner.codes()
            let reader = Task {
                for await code in codes {
                    self.surface?.showMessage("\(code.type): \(code.text)", for: .seconds(5))
                    self.surface?.showCode(ScanHighlight(type: code.type, text: code.text, outline: code.outline))
                    if !(self.surface is TerminalView) {
                        print(self.json ? JSONOutput.line(CodeRecord(type: code.type, text: code.text)) : code.text)
                        fflush(nil)
                    }
                }
            }
            state.withLock { $0.scanning = (scanner, reader) }
            return CameraActionOutcome(message: "Scanning for codes")
        } catch {
            return CameraActionOutcome(message: "\(error)", isError: true)
        }
    }

    /// "Saved PATH (WxH)", or the photo's JSON line.
    func printSaved(_ photo: Photo) {
        if json {
            print(JSONOutput.line(PhotoRecord(photo)))
        } else {
            print("Saved \(photo.path) (\(photo.width)x\(photo.height))")
        }
        fflush(nil)
    }

    /// The loop: the status line twice a second, figures once a second (unless a picker or the terminal
    /// draws on stdout), until something ends the screen; while the camera is gone, waiting for it.
    /// The view's inputs are handled meanwhile by `handleInputs()`'s task, which the caller starts (before the
    /// camera starts, so q works while a camera refused at launch is waited for).
    public func run(duration: Double?, printFigures: Bool) async {
        let plugging = Task { for await change in cameraChanges { self.announce(change) } }
        defer { plugging.cancel() }
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = duration.map { started + .milliseconds(Int($0 * 1000)) }
        while !isOver {
            await showWhileRunning(started: started, deadline: deadline, printFigures: printFigures)
            if isOver || deadline.map({ clock.now >= $0 }) == true { break }
            // A camera that went away (unplugged, stalled, its driver failed mid-stream) may come back; other
            // failures end the screen. --no-wait ends it either way.
            guard case let .failed(error) = session.state, error.isCameraLost, waitsForCamera,
                  let camera = state.withLock({ $0.camera }) else { break }
            state.withLock { $0.stallNotice = nil }
            state.withLock { $0.failure = error }
            guard await waitForCamera(camera, after: error, deadline: deadline) else { break }
            state.withLock { $0.failure = nil }
        }
    }

    /// While the session runs: the status line, figures, and the session's word when frames stop coming.
    ///
    /// The loop wakes once a second (the figures, the status line, the pre-roll), at `deadline`, and at once on
    /// any event of the session (it stopped or failed, a recording ended): no polling between (issue 13: four
    /// wakeups a second, each waking a worker thread, were most of a headless preview's cost beside the pipeline).
    private func showWhileRunning(started: ContinuousClock.Instant, deadline: ContinuousClock.Instant?, printFigures: Bool) async {
        let clock = ContinuousClock()
        // Figures each whole second from the start, also across a camera that went away and came back, and one
        // at the end of --duration (a whole number of seconds: the deadline is on the grid).
        var nextFigures = started + Self.figuresInterval
        while nextFigures <= clock.now { nextFigures += Self.figuresInterval }
        var firstStatus = true
        let session = self.session
        let ticker = Ticker.ticks(every: Self.figuresInterval, from: started, alsoAt: deadline)
        // Subscribed here, not in the task: a stop or failure before the task runs must wake the loop too.
        let events = session.events()
        let stalls = Task { await self.reportStalls(events, wakingUp: ticker) }
        defer { stalls.cancel() }
        cameraOperator.measureFrameRate()
        var ticks = ticker.stream.makeAsyncIterator()
        while case .running = session.state, !isOver {
            noteCamera()
            if let problem = await cameraOperator.keepPreRollArmed() { Standard.error.write("gstcam: \(problem)\n") }
            if firstStatus {
                refreshStatusAndControls()
                firstStatus = false
            }
            _ = await ticks.next()
            guard case .running = session.state else { break }
            let now = clock.now
            // Ticks come at or after their grid time, so a figure is never skipped for a tick a little early.
            if now >= nextFigures {
                let fps = cameraOperator.measureFrameRate()
                refreshStatusAndControls(line: state.withLock { $0.stallNotice == nil })
                if printFigures { printFigure(elapsed: (now - started).inSeconds, fps: fps) }
                repeat { nextFigures += Self.figuresInterval } while nextFigures <= now
            }
            if let deadline, now >= deadline { break }
        }
        // A camera switch just before the session failed is the camera to wait for.
        noteCamera()
    }

    private static let figuresInterval = Duration.seconds(1)

    /// "No frames from /dev/video0 for N s" as the status line while a camera sends nothing (the session says so
    /// each second after CameraConfiguration.stallWarning), the first word of it and the end on stderr.
    /// Each event also wakes the screen's loop (`ticker`), which looks at the session's state.
    private func reportStalls(_ events: AsyncStream<CameraEvent>, wakingUp ticker: Ticker.Ticks) async {
        defer { ticker.tickNow() }
        for await event in events {
            ticker.tickNow()
            guard let notice = event.stallNotice else { continue }
            let first: Bool = state.withLock { state in
                defer { state.stallNotice = event.isStall ? notice : nil }
                return event.isStall == (state.stallNotice == nil)
            }
            surface?.setStatus(event.isStall ? notice : cameraOperator.statusLine())
            // Not onto the terminal view's own screen, which a stderr line would garble (its status line says it).
            if first, !(surface is TerminalView && isatty(2) != 0) { Standard.error.write("gstcam: \(notice)\n") }
        }
    }

    /// Remembers which camera the session shows (it changes with `c`), to know which one to wait for.
    private func noteCamera() {
        guard let device = session.device, state.withLock({ $0.camera?.path }) != device else { return }
        let camera = monitor.cameras.first { $0.path == device } ?? CameraDiscovery.cameras().first { $0.path == device }
        state.withLock { $0.camera = camera }
    }

    /// A camera plugged in or unplugged: said on the screen and stderr; `c` reaches a new one at once.
    private func announce(_ change: CameraChange) {
        // The camera the screen waits for is announced as back when it shows again.
        if case let .added(camera) = change, let waiting = state.withLock({ $0.waiting }), camera.isSameCamera(as: waiting.camera) {
            return
        }
        // The camera shown, listed anew once it could be opened (it had no name while refused for permission).
        if case let .added(camera) = change, state.withLock({ $0.waiting == nil && $0.camera?.path == camera.path }) {
            state.withLock { $0.camera = camera }
            return
        }
        // The camera shown going away is the session's failure to report ("… was disconnected", or waiting for
        // it); the camera list may notice first on a busy machine, and must not say it twice.
        if case let .removed(camera) = change, state.withLock({ $0.camera })?.isSameCamera(as: camera) == true {
            return
        }
        let text: String
        switch change {
        case let .added(camera) where camera.isAccessible:
            text = "Camera plugged in: \(camera.name) (\(camera.path))" + (picker ? "" : " — c switches to it")
        case let .added(camera):
            text = "Camera plugged in: \(camera.name) (\(camera.path)), but \(camera.problem.map { "\($0)" } ?? "it cannot be used")"
        case let .removed(camera):
            text = "Camera unplugged: \(camera.name) (\(camera.path))"
        }
        if state.withLock({ $0.waiting == nil }) { surface?.showMessage(text, for: .seconds(3)) }
        Standard.error.write("gstcam: \(text)\n")
        if case .added = change { printEvent("camera-added", text) } else { printEvent("camera-removed", text) }
    }

    private func printFigure(elapsed: Double, fps: Double) {
        func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
        if json {
            print(JSONOutput.line(FiguresRecord(seconds: rounded(elapsed), frames: session.frameCount, fps: rounded(fps))))
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

    public init(_ number: Int32, _ handler: @escaping @Sendable () -> Void) {
        signal(number, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
    }

    deinit { source.cancel() }
}

private extension CameraEvent {
    var isStall: Bool { if case .framesStalled = self { true } else { false } }
}
