import CGStreamer
import Synchronization

/// The photo branch kept linked to the tee for a whole burst or timelapse, so consecutive shots cost one
/// encode each instead of a branch being parsed, started, linked and torn down per photo.
///
/// It is the session's photo branch file with its file sink swapped for an appsink: encoded images arrive in
/// memory and are saved by `AtomicPhotoWriter`, whose errors (ENOSPC, a vanished folder) name the file.
/// Frames pass the tee pad only against a credit — one per requested shot — so the encoder never works on
/// frames nobody asked for and the preview's branch is never held back.
final class BurstBranch: Sendable {
    /// One encoded image, copied out of its GStreamer buffer.
    struct EncodedImage: Sendable {
        let bytes: [UInt8]
        let width: Int
        let height: Int
    }

    private struct State {
        var credits = 0
        /// One slot per credited frame still on its way through the encoder, in order.
        var waiting: [OneShot<EncodedImage>] = []
        var failure: CameraError?
    }

    private let state = Mutex(State())
    private let pipeline: Element
    private let tee: Element
    private let bin: Element
    private let teePad: Pad
    private let branchInput: Pad
    private let tagger: Element?

    static let sinkName = "burst-sink"

    /// Parses `branch`, replaces its `photo-sink` with an appsink, and links it to a new pad of `tee`.
    init(pipeline: Element, tee: Element, branch: PipelineFile, parameters: [String: String]) throws {
        let bin = try PipelineParser.parseBin(try branch.description(with: parameters), file: branch.path)
        guard let fileSink = bin.child(named: PhotoCapture.sinkName), let fileSinkInput = fileSink.staticPad("sink"),
              let encoded = fileSinkInput.peer else {
            throw CameraError.missingPipelineElement(file: branch.path, name: PhotoCapture.sinkName,
                                                     purpose: "the file sink that writes the photo")
        }
        guard let branchInput = bin.staticPad("sink") else {
            throw CameraError.badPipelineFile(file: branch.path, detail: "the branch must start with an unlinked sink pad and end in \(PhotoCapture.sinkName)")
        }
        encoded.unlink(from: fileSinkInput)
        _ = bin.remove(fileSink)
        guard let made = gst_element_factory_make("appsink", Self.sinkName) else {
            throw CameraError.missingElement(factory: "appsink", package: "gstreamer1.0-plugins-base", file: branch.path)
        }
        let sink = Element(owning: made)
        // Every credited frame must arrive: no dropping, and no waiting for the clock or for preroll.
        sink.set("sync", false)
        sink.set("async", false)
        sink.set("emit-signals", false)
        guard bin.add(sink), let sinkInput = sink.staticPad("sink"), encoded.link(to: sinkInput) == .ok else {
            throw CameraError.badPipelineFile(file: branch.path, detail: "the burst's sink could not be linked after the encoder")
        }
        guard let teePad = tee.requestPad("src_%u") else {
            throw CameraError.badPipelineFile(file: branch.path, detail: "the tee \"split\" gave no new branch pad")
        }
        self.pipeline = pipeline
        self.tee = tee
        self.bin = bin
        self.teePad = teePad
        self.branchInput = branchInput
        tagger = bin.child(named: "tagger")
        AppSink.setSampleHandler(sink) { [weak self] sample in self?.receive(sample) }
        teePad.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { [weak self] _ in
            guard let self else { return GST_PAD_PROBE_DROP }
            return self.state.withLock { state in
                guard state.credits > 0 else { return GST_PAD_PROBE_DROP }
                state.credits -= 1
                return GST_PAD_PROBE_OK
            }
        }
        guard pipeline.add(bin) else {
            tee.releaseRequestPad(teePad)
            throw CameraError.stateChangeFailed(to: "PLAYING", detail: "the burst's photo branch could not join the pipeline")
        }
        // Running before linked, as in PhotoCapture: the renegotiation linking causes must find active pads.
        guard bin.syncStateWithParent(), teePad.link(to: branchInput) == .ok else {
            remove()
            throw CameraError.negotiationFailed(device: nil, detail: "the burst's photo branch could not be linked to the tee")
        }
    }

    /// Lets the next frame reaching the tee through to the encoder; returns the slot its image will fill.
    func requestFrame(tags: PhotoTags) throws -> OneShot<EncodedImage> {
        if let tagger { tags.apply(to: tagger) }
        let slot = OneShot<EncodedImage>()
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            state.credits += 1
            state.waiting.append(slot)
        }
        return slot
    }

    /// Fails every waiting shot, e.g. when the session stops mid-burst.
    func abort(_ error: CameraError) {
        let waiting = state.withLock { state in
            state.failure = state.failure ?? error
            state.credits = 0
            return state.waiting.take()
        }
        for slot in waiting { slot.fail(error) }
    }

    /// Unlinks and removes the branch; frames are dropped at the tee pad from here on.
    func remove() {
        abort(CameraError.notRunning(state: "stopped"))
        teePad.unlink(from: branchInput)
        tee.releaseRequestPad(teePad)
        bin.setState(GST_STATE_NULL)
        _ = pipeline.remove(bin)
    }

    /// Runs on the branch's streaming thread for each encoded image.
    private func receive(_ sample: OpaquePointer) {
        guard let image = Self.copyImage(sample) else { return }
        let slot: OneShot<EncodedImage>? = state.withLock { state in
            state.waiting.isEmpty ? nil : state.waiting.removeFirst()
        }
        slot?.succeed(image)
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
