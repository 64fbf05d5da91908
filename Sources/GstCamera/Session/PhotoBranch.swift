import CGStreamer
import Synchronization

/// A photo branch kept linked to the tee for the life of the pipeline, so a photo costs one encode — no
/// branch to parse, start, link and tear down per photo, and no renegotiation while the shutter is pressed.
/// The photo is the next frame reaching the tee after the request: the one already in flight.
///
/// It is the session's photo branch file with its file sink swapped for an appsink: encoded images arrive in
/// memory and are saved by `AtomicPhotoWriter`, whose errors (ENOSPC, a vanished folder) name the file.
/// Frames pass the tee pad only against a credit — one per requested photo — so the encoder never works on
/// frames nobody asked for and the preview's branch is never held back.
final class PhotoBranch: Sendable {
    /// One encoded image, copied out of its GStreamer buffer.
    struct EncodedImage: Sendable {
        let bytes: [UInt8]
        let width: Int
        let height: Int
    }

    private struct State {
        /// Requests whose frame has not reached the tee yet, oldest first: each is a credit for one frame.
        var requested: [OneShot<EncodedImage>] = []
        /// Requests whose frame passed the tee and is being encoded, in frame order.
        var encoding: [OneShot<EncodedImage>] = []
        var failure: CameraError?
    }

    private let state = Mutex(State())
    private let pipeline: Element
    private let tee: Element
    private let bin: Element
    private let teePad: Pad
    private let branchInput: Pad
    private let tagger: Element?

    /// The name the photo branch file gives its file sink (pipelines/README.md); it is replaced by an appsink.
    static let fileSinkName = "photo-sink"
    static let sinkName = "photo-appsink"

    /// Parses `branch`, replaces its `photo-sink` with an appsink, and links it to a new pad of `tee`.
    init(pipeline: Element, tee: Element, branch: PipelineFile, parameters: [String: String]) throws {
        let bin = try PipelineParser.parseBin(try branch.description(with: parameters), file: branch.path)
        guard let fileSink = bin.child(named: Self.fileSinkName), let fileSinkInput = fileSink.staticPad("sink"),
              let encoded = fileSinkInput.peer else {
            throw CameraError.missingPipelineElement(file: branch.path, name: Self.fileSinkName,
                                                     purpose: "the file sink that writes the photo")
        }
        guard let branchInput = bin.staticPad("sink") else {
            throw CameraError.badPipelineFile(file: branch.path, detail: "the branch must start with an unlinked sink pad and end in \(Self.fileSinkName)")
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
            throw CameraError.badPipelineFile(file: branch.path, detail: "the sink could not be linked after the encoder")
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
                guard !state.requested.isEmpty else { return GST_PAD_PROBE_DROP }
                state.encoding.append(state.requested.removeFirst())
                return GST_PAD_PROBE_OK
            }
        }
        guard pipeline.add(bin) else {
            tee.releaseRequestPad(teePad)
            throw CameraError.stateChangeFailed(to: "PLAYING", detail: "the photo branch could not join the pipeline")
        }
        // Running before linked: linking sends RECONFIGURE upstream, and the source's renegotiation must find
        // the branch's pads active (an inactive branch answers caps queries with nothing: not-negotiated).
        guard bin.syncStateWithParent(), teePad.link(to: branchInput) == .ok else {
            remove()
            throw CameraError.negotiationFailed(device: nil, detail: "the photo branch could not be linked to the tee")
        }
    }

    /// Lets the next frame reaching the tee through to the encoder; returns the slot its image will fill.
    func requestFrame(tags: PhotoTags) throws -> OneShot<EncodedImage> {
        if let tagger { tags.apply(to: tagger) }
        let slot = OneShot<EncodedImage>()
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            state.requested.append(slot)
        }
        return slot
    }

    /// Gives up on a request (a timeout, a burst that stopped early). A frame not yet taken is no longer
    /// taken; one already being encoded is encoded and thrown away, so later requests still get their own.
    func withdraw(_ slot: OneShot<EncodedImage>) {
        state.withLock { state in
            state.requested.removeAll { $0 === slot }
        }
        slot.fail(CameraError.timeout(what: "The photo", seconds: 0))
    }

    /// Requests a frame and waits for its image.
    func takeImage(tags: PhotoTags, timeout: Duration, what: String) async throws -> EncodedImage {
        let slot = try requestFrame(tags: tags)
        do {
            return try await slot.value(timeout: timeout, what: what)
        } catch {
            withdraw(slot)
            throw error
        }
    }

    /// Fails every waiting shot, e.g. when the session stops mid-burst.
    func abort(_ error: CameraError) {
        let waiting = state.withLock { state in
            state.failure = state.failure ?? error
            return state.requested.take() + state.encoding.take()
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
            state.encoding.isEmpty ? nil : state.encoding.removeFirst()
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
