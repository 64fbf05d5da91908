import CGStreamer
import Synchronization
import CameraErrors
import GStreamer
import MediaFiles
import PipelineFiles

/// A photo branch kept linked to the tee for the life of the pipeline, so a photo costs one encode — no
/// branch to parse, start, link and tear down per photo, and no renegotiation while the shutter is pressed.
///
/// Zero shutter lag: a probe on the tee's input keeps a reference to the newest frame (no copy), before the
/// tee hands it to the preview. A request takes that frame — the one current at the request — and pushes it
/// into the branch at once; if a photo has it already (a burst faster than the camera, or a photo of another
/// format: see `PhotographedFrames`), the request takes the next frame to reach the tee. Frames enter the
/// branch only that way: the tee's own pushes to the branch's pad are dropped (its events still pass), so the
/// encoder works only for photos and the preview is never held back.
///
/// The branch file ends in an appsink: encoded images arrive in memory and are saved by `PhotoOutput`
/// (`AtomicPhotoWriter`), whose errors (ENOSPC, a vanished folder) name the photo's file.
final class PhotoBranch: Sendable {
    /// One encoded image, copied out of its GStreamer buffer.
    struct EncodedImage: Sendable {
        let bytes: [UInt8]
        let width: Int
        let height: Int
    }

    private struct State {
        /// The newest frame that reached the tee (one reference held).
        var latest: HeldFrame?
        /// Off while the camera source is being replaced: a held frame would keep the old camera's buffer
        /// queue, and so its device, open.
        var holding = true
        /// Requests waiting for a new frame to reach the tee, oldest first; a flash photo's frame must have been
        /// exposed after the flash fired (its timestamp at least `notBefore`, in running time).
        var requested: [(notBefore: UInt64, slot: OneShot<EncodedImage>, exif: [UInt8]?)] = []
        /// Requests whose frame is in the encoder, by the frame's timestamp (kept by the encoders), in order.
        var encoding: [(timestamp: GstClockTime, slot: OneShot<EncodedImage>, exif: [UInt8]?)] = []
        var failure: CameraError?
    }

    private let state = Mutex(State())
    private let pipeline: Element
    private let branch: TeeBranch
    private let tagger: Element?
    private let photographed: PhotographedFrames
    /// Applied to each encoded image before it is handed out (e.g. adding a camera JPEG's missing tables).
    private let finish: @Sendable ([UInt8]) -> [UInt8]
    /// The images get their EXIF block as a PNG `eXIf` chunk, made at the request, since the encoder (pngenc)
    /// writes none; otherwise a `tagger` element in the file writes it, or nothing does.
    private let addsPNGEXIFChunk: Bool
    /// The branch gets a copy of each frame in the process's own memory (see `encode`).
    private let copiesFrames: Bool

    /// The name the photo branch file gives its appsink (pipelines/README.md).
    static let sinkName = "photo-sink"

    /// The bin's input; frames are pushed into it directly (`encode`).
    private var branchInput: Pad { branch.input }

    /// Parses `file` (which ends in an appsink named `photo-sink`) and hangs it off the tee through `branches`.
    init(pipeline: Element, tee: Element, branches: TeeBranches, file: PipelineFile, parameters: [String: String],
         photographed: PhotographedFrames, finish: @escaping @Sendable ([UInt8]) -> [UInt8] = { $0 },
         addsPNGEXIFChunk: Bool = false, stamp: (file: PipelineFile, format: String)? = nil, copiesFrames: Bool = false) throws {
        let (bin, sink, input) = try PipelineContract.appSinkBranch(file, parameters: parameters, sinkName: Self.sinkName,
                                                                    purpose: "the appsink that receives each encoded photo",
                                                                    inputCaps: branches.inputCaps, front: stamp?.file)
        if let stamp {
            guard let clock = bin.child(named: "stamp") else {
                throw CameraError.missingPipelineElement(file: stamp.file.path, name: "stamp", purpose: "the element that draws the date and time")
            }
            clock.set("time-format", stamp.format)
        }
        guard let teeInput = tee.staticPad("sink") else {
            throw CameraError.badPipelineFile(file: file.path, detail: "the tee \"split\" has no input pad")
        }
        // Every frame sent for a photo must arrive, whatever the file says: no dropping, no waiting for the
        // clock or for preroll, no encoded photo kept around.
        sink.set("sync", false)
        sink.set("async", false)
        sink.set("emit-signals", false)
        sink.set("drop", false)
        sink.set("enable-last-sample", false)
        do {
            // Frames enter only as photos ask for them (`encode`): the tee's own pushes are dropped (its events
            // pass), from before the link on.
            branch = try branches.attach(bin, input: input) { teePad in
                teePad.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { _ in GST_PAD_PROBE_DROP }
            }
        } catch .noTeePad {
            throw CameraError.badPipelineFile(file: file.path, detail: "the tee \"split\" gave no new branch pad")
        } catch .notAdded, .notStarted {
            throw CameraError.stateChangeFailed(to: "PLAYING", detail: "the photo branch of \(file.path) could not join the pipeline")
        } catch {
            throw CameraError.negotiationFailed(device: nil, detail: "the photo branch of \(file.path) could not be linked to the tee")
        }
        self.pipeline = pipeline
        self.photographed = photographed
        self.finish = finish
        self.addsPNGEXIFChunk = addsPNGEXIFChunk
        self.copiesFrames = copiesFrames
        tagger = bin.child(named: "tagger")
        AppSink.setSampleHandler(sink) { [weak self] sample in self?.receive(sample) }
        teeInput.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { [weak self] probe in
            if let self, let buffer = probe.buffer { self.frameArrived(buffer) }
            return GST_PAD_PROBE_OK
        }
    }

    /// Sends the current frame to the encoder — or, if a photo has it already, the next frame to reach the
    /// tee; returns the slot its image will fill. With `notBefore` (running time), only a frame from then on.
    func requestFrame(tags: PhotoTags, notBefore: UInt64? = nil) throws -> OneShot<EncodedImage> {
        if let tagger { tags.apply(to: tagger) }
        let exif = addsPNGEXIFChunk ? tags.exifTIFF() : nil
        let slot = OneShot<EncodedImage>()
        let ready = isNegotiated
        let current: HeldFrame? = try state.withLock { state in
            if let failure = state.failure { throw failure }
            guard ready, notBefore == nil, state.requested.isEmpty, let latest = state.latest,
                  photographed.claim(gstcam_buffer_pts(latest.buffer)) else {
                state.requested.append((notBefore ?? 0, slot, exif))
                return nil
            }
            state.encoding.append((gstcam_buffer_pts(latest.buffer), slot, exif))
            return HeldFrame(latest.buffer)
        }
        if let current { encode(current, for: slot) }
        return slot
    }

    /// Whether the branch's input has caps: the tee sends a pad its stream's events (caps among them) with the
    /// first frame it pushes there after linking; until then a frame pushed by us could not be encoded.
    private var isNegotiated: Bool { gst_pad_has_current_caps(branchInput.pointer) != 0 }

    /// Pushes a frame into the branch. Pushes from a request and from the streaming thread are serialised by
    /// the pad's stream lock.
    private func encode(_ frame: HeldFrame, for slot: OneShot<EncodedImage>) {
        var buffer = frame.buffer
        if copiesFrames {
            // jifmux (GStreamer 1.22) keeps pointers into the JPEG it parsed and reads them after unmapping it.
            // A camera buffer that v4l2src exported as a dma-buf (its dmabuf mode, on every vb2 driver:
            // uvcvideo, vivid) is unmapped from the process by then, so jifmux would read unmapped memory and
            // crash; a copy in ordinary memory stays where it was. A camera's JPEG is small: the copy costs little.
            let copy = gst_buffer_copy_deep(buffer)
            frame.release()
            guard let copy else {
                state.withLock { $0.encoding.removeAll { $0.slot === slot } }
                slot.fail(CameraError.streamingFailed(source: "the photo branch", detail: "the camera's JPEG could not be copied"))
                return
            }
            buffer = copy
        }
        let result = gst_pad_chain(branchInput.pointer, buffer)  // takes over the reference
        guard result != GST_FLOW_OK else { return }
        state.withLock { $0.encoding.removeAll { $0.slot === slot } }
        slot.fail(CameraError.streamingFailed(source: "the photo branch", detail: "it refused the frame (flow \(result.rawValue))"))
    }

    /// Runs on the streaming thread for every frame reaching the tee: keeps it as the current frame, and
    /// sends it to the encoder for a request waiting for a new frame.
    private func frameArrived(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        let ready = isNegotiated
        let (previous, waiting) = state.withLock { state -> (HeldFrame?, OneShot<EncodedImage>?) in
            let previous = state.latest
            state.latest = state.failure == nil && state.holding ? HeldFrame(buffer) : nil
            let timestamp = gstcam_buffer_pts(buffer)
            guard ready, let first = state.requested.first,
                  timestamp == gstcam_clock_time_none() || UInt64(timestamp) >= first.notBefore,
                  photographed.claim(timestamp) else { return (previous, nil) }
            let request = state.requested.removeFirst()
            state.encoding.append((gstcam_buffer_pts(buffer), request.slot, request.exif))
            return (previous, request.slot)
        }
        // Released outside the lock: the last reference returns the buffer to its pool.
        previous?.release()
        if let waiting { encode(HeldFrame(buffer), for: waiting) }
    }

    /// Gives up on a request (a timeout, a burst that stopped early). A frame not yet taken is no longer
    /// taken; one already being encoded is encoded and thrown away, so later requests still get their own.
    func withdraw(_ slot: OneShot<EncodedImage>) {
        state.withLock { state in
            state.requested.removeAll { $0.slot === slot }
        }
        slot.fail(CameraError.timeout(what: "The photo", seconds: 0))
    }

    /// Requests a frame and waits for its image. `beforeFrame` (e.g. firing the flash) runs first, and then
    /// only a frame that reaches the tee after it is taken.
    func takeImage(tags: PhotoTags, timeout: Duration, what: String,
                   beforeFrame: (() throws -> Void)? = nil) async throws -> EncodedImage {
        var notBefore: UInt64?
        if let beforeFrame {
            try beforeFrame()
            notBefore = UInt64(gst_element_get_current_running_time(pipeline.pointer))
        }
        let slot = try requestFrame(tags: tags, notBefore: notBefore)
        do {
            return try await slot.value(timeout: timeout, what: what)
        } catch {
            withdraw(slot)
            throw error
        }
    }

    /// Stops (and resumes) keeping the newest frame; stopping lets go of the one held. Meanwhile a photo is
    /// the next frame to arrive.
    func holdFrames(_ on: Bool) {
        let released = state.withLock { state in
            state.holding = on
            return on ? nil : state.latest.take()
        }
        released?.release()
    }

    /// Whether a newest frame is held now (not while the camera source is replaced, nor after a failure).
    var holdsNewestFrame: Bool { state.withLock { $0.latest != nil } }

    /// A copy of the newest frame, the camera's buffer itself left to the branch: for a window that draws its
    /// overlays again over the last picture while the camera sends nothing (Screen's StillFrame).
    func copyOfNewestFrame() -> UnsafeMutablePointer<GstBuffer>? {
        // A reference of our own, taken under the lock and copied outside it: the streaming thread may replace
        // and release the held one meanwhile.
        guard let newest = state.withLock({ $0.latest.map { HeldFrame($0.buffer) } }) else { return nil }
        defer { newest.release() }
        return gst_buffer_copy_deep(newest.buffer)
    }

    /// Fails every waiting shot, e.g. when the session stops mid-burst.
    func abort(_ error: CameraError) {
        let (waiting, latest) = state.withLock { state in
            state.failure = state.failure ?? error
            defer { state.latest = nil }
            return (state.requested.take().map(\.slot) + state.encoding.take().map(\.slot), state.latest)
        }
        latest?.release()
        for slot in waiting { slot.fail(error) }
    }

    deinit {
        abort(CameraError.notRunning(state: "stopped"))
    }

    /// Runs on the branch's streaming thread for each encoded image.
    private func receive(_ sample: OpaquePointer) {
        guard let copied = Self.copyImage(sample) else { return }
        let timestamp = gst_sample_get_buffer(sample).map { gstcam_buffer_pts($0) } ?? gstcam_clock_time_none()
        let request = state.withLock { state in
            let index = state.encoding.firstIndex { $0.timestamp == timestamp } ?? state.encoding.indices.first
            return index.map { state.encoding.remove(at: $0) }
        }
        guard let request else { return }
        let encoded = finish(copied.bytes)
        let bytes = request.exif.flatMap { PNGEXIFChunk.inserting($0, into: encoded) } ?? encoded
        request.slot.succeed(EncodedImage(bytes: bytes, width: copied.width, height: copied.height))
    }

    private static func copyImage(_ sample: OpaquePointer) -> EncodedImage? {
        guard let buffer = gst_sample_get_buffer(sample) else { return nil }
        var map = GstMapInfo()
        guard gstcam_buffer_map_read(buffer, &map) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        let bytes = Array(UnsafeBufferPointer(start: map.data, count: Int(map.size)))
        // The encoded caps carry the image size (image/jpeg and image/png both have width and height).
        var width: Int32 = 0, height: Int32 = 0
        if let caps = gst_sample_get_caps(sample), let structure = gst_caps_get_structure(caps, 0) {
            gst_structure_get_int(structure, "width", &width)
            gst_structure_get_int(structure, "height", &height)
        }
        return EncodedImage(bytes: bytes, width: Int(width), height: Int(height))
    }
}

extension Array {
    /// The elements, leaving the array empty.
    fileprivate mutating func take() -> [Element] {
        defer { self = [] }
        return self
    }
}

/// One reference to a frame's GstBuffer, taken by `init` and given up by `release()` or by passing the buffer
/// to a call that takes ownership (gst_pad_chain).
///
/// `@unchecked Sendable`: GstBuffer reference counting is atomic, and a held frame is only read (its
/// timestamp) or handed on whole — never written — so moving the reference between threads is safe.
private struct HeldFrame: @unchecked Sendable {
    let buffer: UnsafeMutablePointer<GstBuffer>

    init(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        self.buffer = gst_buffer_ref(buffer)
    }

    func release() { gst_buffer_unref(buffer) }
}
