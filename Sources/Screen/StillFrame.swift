import CGStreamer
import Dispatch
import Synchronization
import GStreamer

/// The window's last picture, kept so the overlays can be drawn again when the camera sends nothing: a video sink
/// draws only when a frame arrives, so with a stalled camera the window would keep its last status line
/// ("30.0 fps") instead of "No frames from … for N s".
///
/// It watches the frames entering the status overlay and keeps a deep copy of one a second (a copy, never a
/// reference: a camera's own buffer held here would keep its device open across a camera switch). `redraw()`
/// pushes that copy, stamped with the pipeline's running time, into the overlay when no frame came for a while.
final class StillFrame: Sendable {
    /// How long without a frame before the overlays are redrawn over the still picture.
    static let quietTime = Duration.milliseconds(700)

    private struct State {
        var copy: OwnedBuffer?
        var copiedAt: ContinuousClock.Instant?
        var lastFrameAt = ContinuousClock.now
        /// The copy being pushed now: its passing the probe is not a frame from the camera.
        var pushing: UInt?
    }

    private let state = Mutex(State())
    private let branch: Element
    private let input: UnsafeSendablePad

    /// Watches the frames entering `overlay` (a textoverlay of `branch`).
    init?(branch: Element, overlay: Element) {
        guard let pad = overlay.staticPad("video_sink") else { return nil }
        self.branch = branch
        input = UnsafeSendablePad(pad)
        pad.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { [weak self] data in
            if let self, let buffer = gstcam_probe_info_buffer(data.info) { self.saw(buffer) }
            return GST_PAD_PROBE_OK
        }
    }

    private func saw(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        let now = ContinuousClock.now
        let copyNow = state.withLock { state -> Bool in
            guard state.pushing != UInt(bitPattern: buffer) else { return false }
            state.lastFrameAt = now
            return state.copiedAt.map { now - $0 >= .seconds(1) } ?? true
        }
        guard copyNow, let copy = gst_buffer_copy_deep(buffer) else { return }
        state.withLock {
            $0.copy = OwnedBuffer(copy)
            $0.copiedAt = now
        }
    }

    /// Pushes the still picture through the overlays again if no frame came for `quietTime` (off the caller's
    /// thread: the sink may wait for the picture's time).
    func redraw() {
        let copy: OwnedBuffer? = state.withLock { state in
            guard ContinuousClock.now - state.lastFrameAt >= Self.quietTime else { return nil }
            return state.copy
        }
        guard let copy else { return }
        DispatchQueue.global().async { [self] in
            guard let clock = gst_element_get_clock(branch.pointer) else { return }
            defer { gst_object_unref(clock) }
            guard let frame = gst_buffer_copy(copy.pointer) else { return }
            // Now, in running time: the overlay drops frames without a time, the sink late ones.
            let now = gst_clock_get_time(clock) &- gst_element_get_base_time(branch.pointer)
            frame.pointee.pts = now
            frame.pointee.dts = gstcam_clock_time_none()
            state.withLock { $0.pushing = UInt(bitPattern: frame) }
            _ = gst_pad_chain(input.pointer, frame)  // takes over the reference
            state.withLock { $0.pushing = nil }
        }
    }
}

/// A buffer reference this code owns, released with it.
///
/// `@unchecked Sendable`: the buffer is only read after it is made (copied, pushed as a new copy), and GstBuffer
/// reference counting is atomic.
private final class OwnedBuffer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstBuffer>
    init(_ pointer: UnsafeMutablePointer<GstBuffer>) { self.pointer = pointer }
    deinit { gst_buffer_unref(pointer) }
}

/// A pad pointer kept by an object its probe belongs to; the pad (owned by its element in the branch) outlives
/// both, since the branch is kept by the object too.
///
/// `@unchecked Sendable`: only the pointer is stored; gst_pad_chain takes the pad's stream lock.
private struct UnsafeSendablePad: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstPad>
    init(_ pad: Pad) { pointer = pad.pointer }
}
