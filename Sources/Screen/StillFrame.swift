import CGStreamer
import Dispatch
import Synchronization
import GStreamer

/// The window's last picture, kept so the overlays can be drawn again when the camera sends nothing: a video sink
/// draws only when a frame arrives, so with a stalled camera the window would keep its last status line
/// ("30.0 fps") instead of "No frames from … for N s".
///
/// It watches the frames entering the window branch (after its `display-input` queue). While the session holds the
/// newest frame for a photo without shutter lag (`CameraSession.holdsNewestFrame`), nothing is kept here: the
/// still picture is copied from that frame once the camera has been quiet for `quietTime`, and let go when frames
/// come again — a frame-sized copy kept all the time was 1.8 MB of the 1280x720 window preview's peak memory.
/// Otherwise (a Motion-JPEG camera, whose held frames are its own JPEGs) it keeps a deep copy of one frame a second,
/// in the camera's format (half the bytes of the branch's BGRx for YUYV), refilled in place while the frames keep
/// their layout. Always a copy, never a reference: a camera's own buffer held here would keep its device open across
/// a camera switch. `redraw()` pushes the still picture, stamped with the pipeline's running time, through the
/// branch's overlays when no frame came for a while.
final class StillFrame: Sendable {
    /// How long without a frame before the overlays are redrawn over the still picture.
    static let quietTime = Duration.milliseconds(700)

    /// Where the still picture comes from when the camera stops: the session's newest frame.
    struct NewestFrame: Sendable {
        /// Whether the session holds its newest frame now.
        let isHeld: @Sendable () -> Bool
        /// A deep copy of it, owned by the caller.
        let copy: @Sendable () -> UnsafeMutablePointer<GstBuffer>?
    }

    private struct State {
        var copy: OwnedBuffer?
        /// The layout of the frames `copy` was made from.
        var layout: VideoInfo?
        /// When `saw` last decided where the still picture comes from (once a second).
        var checkedAt: ContinuousClock.Instant?
        var lastFrameAt = ContinuousClock.now
        /// The copy being pushed now: its passing the probe is not a frame from the camera.
        var pushing: UInt?
    }

    private let state = Mutex(State())
    private let branch: Element
    private let input: ProbedPad
    private let newestFrame: NewestFrame

    /// Watches the frames leaving `queue` (`branch`'s display-input) for the element after it.
    init?(branch: Element, queue: Element, newestFrame: NewestFrame) {
        guard let pad = queue.staticPad("src")?.peer else { return nil }
        self.branch = branch
        self.newestFrame = newestFrame
        input = ProbedPad(pad)
        pad.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { [weak self] data in
            if let self, let buffer = gstcam_probe_info_buffer(data.info) { self.saw(buffer) }
            return GST_PAD_PROBE_OK
        }
    }

    private func saw(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        let now = ContinuousClock.now
        let checkNow = state.withLock { state -> Bool in
            guard state.pushing != UInt(bitPattern: buffer) else { return false }
            state.lastFrameAt = now
            return state.checkedAt.map { now - $0 >= .seconds(1) } ?? true
        }
        guard checkNow else { return }
        if newestFrame.isHeld() {
            // A still picture copied in a stall that has ended goes, released outside the lock (OwnedBuffer's deinit).
            _ = state.withLock { state -> OwnedBuffer? in
                state.checkedAt = now
                return state.copy.take()
            }
            return
        }
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
                $0.checkedAt = now
            }
        }
        guard let copy = gst_buffer_copy_deep(buffer) else { return }
        state.withLock {
            $0.copy = OwnedBuffer(copy)
            $0.layout = layout
            $0.checkedAt = now
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
        let (quiet, kept) = state.withLock { state -> (Bool, OwnedBuffer?) in
            guard ContinuousClock.now - state.lastFrameAt >= Self.quietTime else { return (false, nil) }
            guard state.layout == layout else { return (true, nil) }
            return (true, state.copy.flatMap { gst_buffer_copy($0.pointer) }.map(OwnedBuffer.init))
        }
        guard quiet, layout != nil, let still = kept ?? copyNewestFrame(layout: layout) else { return }
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

extension StillFrame {
    /// Keeps a copy of the session's newest frame as the still picture, and returns a buffer of its own sharing it.
    fileprivate func copyNewestFrame(layout: VideoInfo?) -> OwnedBuffer? {
        guard let copy = newestFrame.copy() else { return nil }
        let kept = OwnedBuffer(copy)
        state.withLock { state in
            state.copy = kept
            state.layout = layout
        }
        return gst_buffer_copy(kept.pointer).map(OwnedBuffer.init)
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
