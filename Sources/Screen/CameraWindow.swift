import CGStreamer
import Synchronization
import Controls
import GStreamer
import LinuxSystem
import Session

/// The camera screen drawn in the window branch (pipelines/display.branch): it turns the window's navigation
/// events into `ScreenInput` and draws the status line, brief messages and the focus square into that branch
/// only, so photos and preview frames never carry them.
///
/// Make it (or call `show(_:)`) before `session.start()`: it attaches when the session adds the window branch.
/// When the camera screen moves to another session (a camera that came back, the waiting picture meanwhile),
/// `show(_:)` that session: the status line and a lasting message carry over to its window.
final class CameraWindow: Sendable {
    /// Element names display.branch gives its overlay stages (pipelines/README.md).
    static let inputElement = "display-input"
    static let statusElement = "status"
    static let messageElement = "message"
    static let focusLayerElement = "focus-layer"
    static let windowSizeElement = "window-size"
    static let countdownElement = "countdown"
    static let sinkElement = "display"

    struct State {
        var branch: Element?
        /// The window branches of the last two sessions shown, with their frame sizes: the one before can be
        /// shown again when the last one failed to start (`showAgain`).
        var attached: [(session: ObjectIdentifier, branch: Element, frameSize: (width: Int, height: Int),
                        newestFrame: StillFrame.NewestFrame)] = []
        var inputObservers: [Int: AsyncStream<ScreenInput>.Continuation] = [:]
        var nextObserverID = 0
        var focusSquare: FocusSquare?
        var messageID = 0
        /// The texts shown now, put into a new window branch when the screen moves to another session.
        var status = ""
        var message = ""
        /// A message shown until replaced (e.g. "Camera disconnected — waiting for it").
        var lastingMessage: String?
        /// The window's last picture, to draw the overlays again over it when no frame comes.
        var stillFrame: StillFrame?
        /// The size frames enter the window branch with (the session's), and the size they are scaled to.
        var frameSize = (width: 0, height: 0)
        var fit: WindowFit?
        /// Follows the size of a window whose sink does not scale (WindowFit).
        var resizeWatch: Task<Void, Never>?
    }

    private let state = Mutex(State())
    /// The control bar, the shutter's flash and the error view (the `control-bar` overlay).
    let controlBar = ControlBarOverlay()
    /// The status line (the `status` overlay), drawn at the size the picture is shown at.
    private let statusLine = StatusLineOverlay()

    public init(session: CameraSession) {
        show(session)
    }

    /// Draws into `session`'s window branch once the session adds it (make the call before `session.start()`).
    public func show(_ session: CameraSession) {
        state.withLock { $0.frameSize = (session.configuration.width, session.configuration.height) }
        let id = ObjectIdentifier(session)
        let newestFrame = StillFrame.NewestFrame(isHeld: { [weak session] in session?.holdsNewestFrame ?? false },
                                                 copy: { [weak session] in session?.copyOfNewestFrame() })
        session.observeWindowBranch(added: { [weak self] branch in self?.attach(to: branch, of: id, newestFrame: newestFrame) },
                                    failed: { [weak self] reason in self?.deliver(.windowClosed(reason: reason)) })
    }

    /// Clicks, wheel steps and keys from the window, in order. Each call makes a new stream.
    func inputs() -> AsyncStream<ScreenInput> {
        let (stream, continuation) = AsyncStream.makeStream(of: ScreenInput.self)
        let id = state.withLock { state in
            state.nextObserverID += 1
            state.inputObservers[state.nextObserverID] = continuation
            return state.nextObserverID
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.inputObservers.removeValue(forKey: id) } }
        return stream
    }

    /// Ends the input streams (the window is gone).
    public func finish() {
        let observers = state.withLock { state in
            defer { state.inputObservers = [:] }
            return Array(state.inputObservers.values)
        }
        for observer in observers { observer.finish() }
    }

    /// The line along the bottom of the picture.
    func setStatus(_ text: String) {
        // The line is set every second, mostly unchanged; textoverlay renders its text again on every set.
        let (changed, still) = state.withLock { state in
            defer { state.status = text }
            return (state.status != text, state.stillFrame)
        }
        guard changed else { return }
        statusLine.show(text)
        // A stalled camera sends no frame that would show the new line: draw it over the last picture.
        still?.redraw()
    }

    /// A message at the top of the picture until the next call (nil removes it); brief messages show over it
    /// and it comes back after them.
    func showLastingMessage(_ text: String?) {
        state.withLock {
            $0.lastingMessage = text
            $0.messageID += 1
            $0.message = text ?? ""
        }
        element(Self.messageElement)?.set("text", text ?? "")
    }

    /// A message at the top of the picture for `duration` (a saved photo, an error).
    func showMessage(_ text: String, for duration: Duration = .seconds(2)) {
        let id: Int = state.withLock { state in
            state.messageID += 1
            state.message = text
            return state.messageID
        }
        element(Self.messageElement)?.set("text", text)
        Task { [weak self] in
            try? await Task.sleep(for: duration)
            guard let self else { return }
            let lasting: String? = self.state.withLock { state in
                guard state.messageID == id else { return nil }
                state.message = state.lastingMessage ?? ""
                return state.message
            }
            if let lasting { self.element(Self.messageElement)?.set("text", lasting) }
        }
    }

    /// The self-timer's seconds left, large in the middle of the picture (nil: none).
    func showCountdown(_ seconds: Int?) {
        element(Self.countdownElement)?.set("text", seconds.map(String.init) ?? "")
        state.withLock { $0.stillFrame }?.redraw()
    }

    /// The focus square at a point of the picture; it fades by itself.
    func showFocusSquare(at point: NormalizedPoint) {
        state.withLock { $0.focusSquare = FocusSquare(center: point, shownAt: .now) }
    }

    /// Whether the focus square is on screen now (for status queries and tests).
    var isShowingFocusSquare: Bool {
        state.withLock { $0.focusSquare }.map { ContinuousClock.now - $0.shownAt < FocusSquare.lifetime } ?? false
    }

    private func deliver(_ input: ScreenInput) {
        let observers = state.withLock { Array($0.inputObservers.values) }
        for observer in observers { observer.yield(input) }
    }

    private func element(_ name: String) -> Element? {
        state.withLock { $0.branch }?.child(named: name)
    }

    // MARK: Attaching to the window branch

    /// Draws into `session`'s window branch again (it still runs) after a session tried in its place failed.
    func showAgain(_ session: CameraSession) {
        let id = ObjectIdentifier(session)
        let shown = state.withLock { state -> (branch: Element, newestFrame: StillFrame.NewestFrame)? in
            guard let entry = state.attached.last(where: { $0.session == id }) else { return nil }
            state.frameSize = entry.frameSize
            state.attached.append(entry)
            state.attached.removeFirst(max(0, state.attached.count - 2))
            return (entry.branch, entry.newestFrame)
        }
        guard let shown else { return }
        draw(into: shown.branch, newestFrame: shown.newestFrame)
    }

    private func attach(to branch: Element, of session: ObjectIdentifier, newestFrame: StillFrame.NewestFrame) {
        state.withLock { state in
            state.attached.append((session, branch, state.frameSize, newestFrame))
            state.attached.removeFirst(max(0, state.attached.count - 2))
        }
        draw(into: branch, newestFrame: newestFrame)
        probe(branch)
    }

    /// The status line, messages, control bar and window size into `branch`, which is the one shown from now on.
    private func draw(into branch: Element, newestFrame: StillFrame.NewestFrame) {
        let message = state.withLock { state in
            state.branch = branch
            return state.message
        }
        branch.child(named: Self.messageElement)?.set("text", message)
        let still = branch.child(named: Self.inputElement).flatMap {
            StillFrame(branch: branch, queue: $0, newestFrame: newestFrame)
        }
        state.withLock { $0.stillFrame = still }
        fitWindow(in: branch)
        let (frame, shown) = state.withLock { ($0.frameSize, $0.fit.map { ($0.width, $0.height) } ?? $0.frameSize) }
        controlBar.attach(to: branch, frame: frame)
        // The status line overlay already has `status`: setStatus gives it every change.
        statusLine.attach(to: branch, size: shown)
    }

    /// Navigation events and the focus square of `branch`, once per branch.
    private func probe(_ branch: Element) {
        if let input = branch.staticPad("sink") {
            // Navigation events travel upstream out of the branch towards the tee; they stop here.
            let pad = ProbedPad(input)
            input.addProbe(GST_PAD_PROBE_TYPE_EVENT_UPSTREAM) { [weak self] data in
                guard let self, let event = gstcam_probe_info_event(data.info), let size = pad.videoInfo else {
                    return GST_PAD_PROBE_OK
                }
                // Presses and releases on the control bar are its buttons', never a focus point.
                if let pointer = NavigationEvent.primaryButton(from: event, width: size.width, height: size.height) {
                    switch self.controlBar.pointer(pressed: pointer.pressed, at: pointer.point) {
                    case .picture: break
                    case .taken: return GST_PAD_PROBE_DROP
                    case let .clicked(button):
                        self.deliver(.key(button.key))
                        return GST_PAD_PROBE_DROP
                    }
                }
                guard let received = NavigationEvent.input(from: event, width: size.width, height: size.height) else {
                    return GST_PAD_PROBE_OK
                }
                self.deliver(received)
                return GST_PAD_PROBE_DROP
            }
        }
        if let layer = branch.child(named: Self.focusLayerElement)?.staticPad("src") {
            let pad = ProbedPad(layer)
            layer.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { [weak self] data in
                guard let self, let square = self.state.withLock({ $0.focusSquare }) else { return GST_PAD_PROBE_OK }
                guard let look = FocusSquare.appearance(age: (ContinuousClock.now - square.shownAt).inSeconds) else {
                    self.state.withLock { if $0.focusSquare == square { $0.focusSquare = nil } }
                    return GST_PAD_PROBE_OK
                }
                guard let info = pad.videoInfo, let channels = Self.channels(of: info.format) else {
                    return GST_PAD_PROBE_OK
                }
                Self.draw(square, look: look, on: data.info, info: info, channels: channels)
                return GST_PAD_PROBE_OK
            }
        }
    }

    /// Opens the window no larger than the screen, and scales the picture to the window as it is resized where
    /// the sink does not (WindowFit).
    private func fitWindow(in branch: Element) {
        guard let sizer = branch.child(named: Self.windowSizeElement) else { return }
        let frame = state.withLock { $0.frameSize }
        let fit = WindowFit.initial(frame: frame, screen: DisplayCheck.x11ScreenSize())
        sizer.setCaps("caps", fit.caps)
        let sink = branch.child(named: Self.sinkElement)
        let watch = sink.flatMap { sink in
            // A Ticker, not Task.sleep in a loop: see Ticker (a loop of Task.sleeps grows memory on this toolchain).
            WindowFit.nonScalingSinks.contains(sink.factoryName ?? "") ? Task { [weak self] in
                for await _ in Ticker.every(.milliseconds(300)) {
                    guard !Task.isCancelled, let self else { return }
                    let window = (Int(sink.uint64("window-width")), Int(sink.uint64("window-height")))
                    guard window.0 > 0, window.1 > 0 else { continue }
                    let wanted = WindowFit.fitting(frame, into: window, enlarge: true)
                    let changed = self.state.withLock { state in
                        defer { state.fit = wanted }
                        return state.fit != wanted
                    }
                    if changed {
                        sizer.setCaps("caps", wanted.caps)
                        self.statusLine.resize(to: (wanted.width, wanted.height))
                    }
                }
            } : nil
        }
        let previous = state.withLock { state in
            defer {
                state.fit = fit
                state.resizeWatch = watch
            }
            return state.resizeWatch
        }
        previous?.cancel()
    }

    /// Where red, green and blue sit in the 4-byte formats the focus layer can draw on.
    static func channels(of format: VideoFormat) -> (red: Int, green: Int, blue: Int)? {
        switch format.rawValue {
        case "BGRx", "BGRA": (2, 1, 0)
        case "RGBx", "RGBA": (0, 1, 2)
        case "xRGB", "ARGB": (1, 2, 3)
        case "xBGR", "ABGR": (3, 2, 1)
        default: nil
        }
    }

    private static func draw(_ square: FocusSquare, look: (scale: Double, opacity: Double), on info: UnsafeMutablePointer<GstPadProbeInfo>,
                             info video: VideoInfo, channels: (red: Int, green: Int, blue: Int)) {
        // The tee shares each buffer with the preview and photo branches: drawing needs this branch's own copy.
        guard let buffer = gstcam_probe_info_writable_buffer(info) else { return }
        var map = GstMapInfo()
        guard gstcam_buffer_map_write(buffer, &map) != 0 else { return }
        defer { gst_buffer_unmap(buffer, &map) }
        guard map.size >= video.bytesPerRow * video.height else { return }
        FocusSquare.draw(into: UnsafeMutableRawBufferPointer(start: map.data, count: Int(map.size)),
                         width: video.width, height: video.height, bytesPerRow: video.bytesPerRow, channels: channels,
                         center: square.center, scale: look.scale, opacity: look.opacity)
    }
}

/// The pad a probe sits on, for the probe's own use: a probe is owned by its pad, so the pad outlives every call
/// of it (a strong `Pad` captured in the probe would be a reference cycle that never frees the pad).
///
/// `@unchecked Sendable`: only the pointer is stored, and GstPad's caps queries and gst_pad_chain (StillFrame's
/// pushes, under the pad's stream lock) are MT-safe.
struct ProbedPad: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstPad>
    init(_ pad: Pad) { pointer = pad.pointer }

    var videoInfo: VideoInfo? { gst_pad_get_current_caps(pointer).map { Caps(owning: $0) }?.videoInfo }
}
