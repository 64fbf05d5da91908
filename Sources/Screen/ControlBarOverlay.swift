import Synchronization
import Controls
import GStreamer
import LinuxSystem

/// Draws the control bar (ControlBar), the shutter's white flash and the full-window error view through the window
/// branch's `control-bar` (FrameOverlay), and turns mouse presses and releases on the bar into button clicks.
/// The drawing is made into pixels only when what it shows changes (Drawing+Cairo.swift); each frame only blends them.
final class ControlBarOverlay: Sendable {
    static let element = "control-bar"

    /// How long the shutter's white flash fades for, and in how many steps.
    static let whiteoutDuration = Duration.milliseconds(150)
    static let whiteoutSteps = 5

    private struct State {
        var overlay: FrameOverlay?
        /// Whether a picture failed and was reported (once: the next change may fail the same way).
        var reportedFailure = false
        var frame = (width: 0, height: 0)
        var bar = ControlBar()
        /// Whether the screen has said what the buttons show (the first status reading, just after the camera
        /// starts): the bar is not drawn before, so it is drawn once with its buttons, not twice (without the
        /// camera-switch button, then with it).
        var settingsKnown = false
        var whiteout = 0.0
        var error: ErrorView?
        /// A code just read (scan mode), over the picture and the bar until it is taken off.
        var code: (highlight: ScanHighlight, id: Int)?
        var nextCodeID = 0
        /// The drawing shown last, not to draw the same again.
        var drawn: Drawing?
    }

    private let state = Mutex(State())

    /// Draws into `branch`'s overlay from now on (a new window branch: the bar carries over).
    func attach(to branch: Element, frame: (width: Int, height: Int)) {
        state.withLock { state in
            state.overlay = branch.child(named: Self.element).map { FrameOverlay(over: $0) }
            state.frame = frame
            state.drawn = nil
        }
        redraw()
    }

    func show(_ settings: ControlBar.Settings) {
        state.withLock { state in
            state.bar.settings = settings
            state.settingsKnown = true
        }
        redraw()
    }

    func show(_ thumbnail: PhotoThumbnail) {
        state.withLock { $0.bar.thumbnail = thumbnail }
        redraw()
    }

    /// `h`: hides or shows the bar; returns whether it shows now.
    func toggleHidden() -> Bool {
        let shown = state.withLock { state in
            state.bar.hidden.toggle()
            state.bar.pressed = nil
            return !state.bar.hidden
        }
        redraw()
        return shown
    }

    var isHidden: Bool { state.withLock { $0.bar.hidden } }

    /// The full-window error view instead of the bar (nil: the bar again).
    func show(error: ErrorView?) {
        state.withLock { $0.error = error }
        redraw()
    }

    /// Highlights a code just read for ScanHighlight.duration (a newer code replaces it).
    func show(code highlight: ScanHighlight) {
        let id = state.withLock { state in
            state.nextCodeID += 1
            state.code = (highlight, state.nextCodeID)
            return state.nextCodeID
        }
        redraw()
        Task {
            try? await Task.sleep(for: ScanHighlight.duration)
            state.withLock { if $0.code?.id == id { $0.code = nil } }
            redraw()
        }
    }

    /// The shutter's flash: the picture goes white and fades back within `whiteoutDuration`.
    func flashShutter() {
        Task {
            for step in stride(from: Self.whiteoutSteps, through: 0, by: -1) {
                state.withLock { $0.whiteout = 0.85 * Double(step) / Double(Self.whiteoutSteps) }
                redraw()
                if step > 0 { try? await Task.sleep(for: Self.whiteoutDuration / Self.whiteoutSteps) }
            }
        }
    }

    /// What a pointer press or release did on the bar.
    enum PointerOutcome: Equatable {
        /// Not on the bar: the picture's (a press there focuses).
        case picture
        /// Taken by the bar (a press that holds a button down, the band between buttons, a release elsewhere).
        case taken
        /// A button was pressed and released on it: its key's action follows.
        case clicked(ControlBar.Button)
    }

    /// A primary-button press (`pressed`) or release at a point of the picture.
    func pointer(pressed: Bool, at point: NormalizedPoint) -> PointerOutcome {
        let outcome: PointerOutcome = state.withLock { state in
            guard state.error == nil else { return .picture }
            let target = state.bar.target(at: point, width: state.frame.width, height: state.frame.height)
            if pressed {
                switch target {
                case .picture: return .picture
                case .band: return .taken
                case let .button(button):
                    state.bar.pressed = button
                    return .taken
                }
            }
            guard let held = state.bar.pressed else { return target == .picture ? .picture : .taken }
            state.bar.pressed = nil
            return target == .button(held) ? .clicked(held) : .taken
        }
        if outcome != .picture { redraw() }
        return outcome
    }

    private func redraw() {
        state.withLock { state in
            guard let overlay = state.overlay, state.frame.width > 0, state.frame.height > 0 else { return }
            // The bar alone lies in its band: only those rows are made into pixels (a hidden bar, none at all).
            let barOnly = state.error == nil && state.code == nil && state.whiteout == 0
            // Until then nothing shows (not an error view taken off meanwhile either).
            if barOnly && !state.settingsKnown {
                state.drawn = nil
                return overlay.show(nil)
            }
            var drawing = state.error.map { $0.drawing(width: state.frame.width, height: state.frame.height) }
                ?? state.bar.drawing(width: state.frame.width, height: state.frame.height, whiteout: state.whiteout)
            if state.error == nil, let code = state.code {
                drawing.items += code.highlight.items(width: state.frame.width, height: state.frame.height)
            }
            guard drawing != state.drawn else { return }
            state.drawn = drawing
            // Under the lock, so two redraws cannot show their pictures in the wrong order (the overlay's own lock
            // is never held while it waits for this one).
            let (width, height) = state.frame
            if barOnly && state.bar.hidden { return overlay.show(nil) }
            do {
                if barOnly {
                    let layout = ControlBar.Layout(width: width, height: height), margin = 4 * layout.scale
                    let rows = Int((layout.top - margin).rounded(.down))..<Int((layout.bottom + margin).rounded(.up))
                    overlay.show(try drawing.picture(rows: rows))
                } else {
                    overlay.show(try drawing.picture())
                }
            } catch {
                guard !state.reportedFailure else { return }
                state.reportedFailure = true
                Standard.error.write("gstcam: \(error)\n")
            }
        }
    }
}
