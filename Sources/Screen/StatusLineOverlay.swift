import Synchronization
import GStreamer
import LinuxSystem

/// The status line along the bottom of the window's picture, drawn through display.branch's `status` (an identity
/// FrameOverlay blends into): its text made into pixels by Pango only when it changes (Drawing+Cairo.swift, the
/// fonts textoverlay used), on a dark box fitted to the text's pixels, and only blended per frame.
/// textoverlay, which drew it before, shaded its box and blended its text on every frame: with the re-rendering
/// every second, half of what the window preview cost beyond gst-launch-1.0's (perf, docs/benchmarks.md).
final class StatusLineOverlay: Sendable {
    /// textoverlay's look, which the line keeps: "Sans 10" at a 640-pixel-wide picture, growing with the width,
    /// 25 pixels in from the left and up from the bottom, on a box 6 pixels larger than the text.
    static let pointSize = 10.0
    static let margin = 25
    static let boxPadding = 6
    /// How dark the box is (textoverlay took 80 off every channel; this darkens by the same on mid-grey).
    static let boxOpacity = 0.6

    private struct State {
        var overlay: FrameOverlay?
        var reportedFailure = false
        var size = (width: 0, height: 0)
        var text = ""
        /// What was drawn last (text and size), not to draw it again.
        var drawn: String?
    }

    private let state = Mutex(State())

    /// Draws into `branch`'s `status` from now on, at `size` (a new window branch: the text carries over).
    func attach(to branch: Element, size: (width: Int, height: Int)) {
        state.withLock { state in
            state.overlay = branch.child(named: CameraWindow.statusElement).map { FrameOverlay(over: $0) }
            state.size = size
            state.drawn = nil
        }
        redraw()
    }

    func show(_ text: String) {
        state.withLock { $0.text = text }
        redraw()
    }

    /// The picture is shown at another size (a resized window): the text is drawn again at it.
    func resize(to size: (width: Int, height: Int)) {
        state.withLock { $0.size = size }
        redraw()
    }

    /// `text` drawn as textoverlay placed it in a `width` × `height` picture, and the rows it can cover.
    static func drawing(_ text: String, width: Int, height: Int) -> (drawing: Drawing, rows: Range<Int>) {
        // Pango's 96 dpi: 10 pt is 13.3 pixels; textoverlay scales the font by the picture's width over 640.
        let fontSize = pointSize * 96 / 72 * Double(width) / 640
        // DejaVu Sans: ascent 0.93 and descent 0.24 of the size; the line's bottom sits `margin` above the edge.
        let bottom = Double(height - margin), baseline = bottom - 0.24 * fontSize
        let top = bottom - 1.17 * fontSize
        let rows = max(0, Int(top) - boxPadding - 2)..<min(height, Int(bottom.rounded(.up)) + boxPadding + 2)
        let line = Drawing.Text(runs: RecordingIndicator.runs(text), x: Double(margin), y: baseline, size: fontSize)
        return (Drawing(width: width, height: height, items: [.text(line)]), rows)
    }

    private func redraw() {
        state.withLock { state in
            guard let overlay = state.overlay, state.size.width > 0, state.size.height > 0 else { return }
            let (width, height) = state.size
            let key = "\(width)x\(height) \(state.text)"
            guard key != state.drawn else { return }
            state.drawn = key
            // Under the lock, so two redraws cannot show their pictures in the wrong order.
            guard !state.text.isEmpty else { return overlay.show(nil) }
            let (drawing, rows) = Self.drawing(state.text, width: width, height: height)
            do {
                let text = try drawing.picture(rows: rows)
                overlay.show(text.onBox(padding: Self.boxPadding, opacity: Self.boxOpacity))
            } catch {
                guard !state.reportedFailure else { return }
                state.reportedFailure = true
                Standard.error.write("gstcam: \(error)\n")
            }
        }
    }
}
