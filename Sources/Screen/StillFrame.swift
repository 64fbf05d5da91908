import CGStreamer
import Dispatch
import Synchronization
import GStreamer

/// The window's last picture, kept so the overlays can be drawn again when the camera sends nothing: a video sink
/// draws only when a frame arrives, so with a stalled camera the window would keep its last status line
/// ("30.0 fps") instead of "No frames from … for N s".
///
/// It watches the frames entering the window branch (after its `display-input` queue: still in the camera's
/// format, half the bytes of the branch's BGRx for YUYV) and keeps a deep copy of one a second (a copy, never a
/// reference: a camera's own buffer held here would keep its device open across a camera switch). The copy is
/// refilled in place while the frames keep their layout: a new frame-sized copy each second had two of them alive
/// at once, 7.4 MB of the window preview's peak heap at 1280x720 (heaptrack). `redraw()` pushes that copy,
/// stamped with the pipeline's running time, through the branch's overlays when no frame came for a while.
final class StillFrame: Sendable {
    /// How long without a frame before the overlays are redrawn over the still picture.
    static let quietTime = Duration.milliseconds(700)

    private struct State {
        var copy: OwnedBuffer?
        /// The layout of the frames `copy` was made from.
        var layout: VideoInfo?
        var copiedAt: ContinuousClock.Instant?
        var lastFrameAt = ContinuousClock.now
        /// The copy being pushed now: its passing the probe is not a frame from the camera.
        var pushing: UInt?
    }

    private let state = Mutex(State())
    private let branch: Element
    private let input: ProbedPad

    /// Watches the frames leaving `queue` (`branch`'s display-input) for the element after it.
    init?(branch: Element, queue: Element) {
        guard let pad = queue.staticPad("src")?.peer else { return nil }
        self.branch = branch
        input = ProbedPad(pad)
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
        guard copyNow else { return }
        let layout = input.videoInfo
        // Taken out while it is refilled: redraw() meanwhile finds no copy (frames are coming: none is needed).
        let kept = state.withLock { state -> OwnedBuffer? in
            guard layout != nil, state.layout == layout else { return nil }
            defer { state.copy = nil }
            return state.copy
        }
        if let kept, Self.refill(kept.pointer, from: buffer) {
            return state.withLock {
                $0.copy = kept
                $0.copiedAt = now
            }
        }
        guard let copy = gst_buffer_copy_deep(buffer) else { return }
        state.withLock {
            $0.copy = OwnedBuffer(copy)
            $0.layout = layout
            $0.copiedAt = now
        }
    }

    /// Copies `frame`'s bytes into `copy`, a buffer of the same layout; false when they differ in size or `copy`
    /// is not this code's alone.
    private static func refill(_ copy: UnsafeMutablePointer<GstBuffer>, from frame: UnsafeMutablePointer<GstBuffer>) -> Bool {
        guard gstcam_buffer_is_writable(copy) != 0, gst_buffer_get_size(copy) == gst_buffer_get_size(frame) else { return false }
        var target = GstMapInfo()
        // A memory still shared with a pushed still picture is copied by the write map, not written under it.
        guard gstcam_buffer_map_write(copy, &target) != 0 else { return false }
        defer { gst_buffer_unmap(copy, &target) }
        return gst_buffer_extract(frame, 0, target.data, target.size) == target.size
    }

    /// Pushes the still picture through the overlays again if no frame came for `quietTime` (off the caller's
    /// thread: the sink may wait for the picture's time).
    func redraw() {
        // Frames of another layout since the copy (a new mode) would fail the elements after the pad.
        let layout = input.videoInfo
        // A buffer of its own sharing the copy's memory, taken under the lock: a refill then writes a new memory.
        let still: OwnedBuffer? = state.withLock { state in
            guard ContinuousClock.now - state.lastFrameAt >= Self.quietTime, state.layout == layout else { return nil }
            return state.copy.flatMap { gst_buffer_copy($0.pointer) }.map(OwnedBuffer.init)
        }
        guard let still else { return }
        DispatchQueue.global().async { [self] in
            guard let clock = gst_element_get_clock(branch.pointer) else { return }
            defer { gst_object_unref(clock) }
            guard let frame = gst_buffer_copy(still.pointer) else { return }
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
/// `@unchecked Sendable`: the kept copy's bytes are written (refill) only while StillFrame's state does not hold it
/// and, through the write map, never while another buffer shares them; GstBuffer reference counting is atomic.
private final class OwnedBuffer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstBuffer>
    init(_ pointer: UnsafeMutablePointer<GstBuffer>) { self.pointer = pointer }
    deinit { gst_buffer_unref(pointer) }
}
