import CGStreamer
import Synchronization
import CameraErrors
import GStreamer
import PipelineFiles

/// An encoding branch kept linked at the session's tee while something serves the camera: H.264 for RTSP
/// (pipelines/network-x264.branch, network-openh264.branch) or JPEG for the web page's live view
/// (network-mjpeg.branch). One encode, however many viewers: each encoded sample goes to every subscriber.
///
/// The tee's frames pass into the branch only while it has a subscriber (a probe on its tee pad drops them
/// otherwise; caps and other events still pass), so an idle server encodes nothing. A new subscriber asks the
/// encoder for a keyframe, where a decoder can start.
public final class NetworkBranch: Sendable {
    /// A subscriber's handler: runs on the branch's streaming thread with the sample borrowed for the call. It
    /// must not block (push into a leaky queue, or copy and hand over) and must never throw into C.
    public typealias Handler = @Sendable (OpaquePointer) -> Void

    private struct State {
        var handlers: [Int: Handler] = [:]
        var nextID = 0
        var removed = false
    }

    private let state = Mutex(State())
    private let gateOpen = Atomic<Bool>(false)
    private let pipeline: Element
    private let tee: Element
    private let bin: Element
    private let teePad: Pad
    private let branchInput: Pad
    private let sinkInput: Pad
    /// The branch file, for messages.
    public let path: String

    /// The name each network branch file gives its appsink (pipelines/README.md).
    static let sinkName = "network-sink"

    /// The H.264 branch files, best first, with the encoder each needs.
    static let h264Files: [(file: String, encoder: String)] = [
        ("network-x264.branch", "x264enc"),
        ("network-openh264.branch", "openh264enc"),
    ]

    /// The first H.264 branch file whose encoder is installed; the error names the packages that provide one.
    public static func h264File() throws -> PipelineFile {
        GStreamerRuntime.ensureInitialized()
        for candidate in h264Files {
            if let factory = gst_element_factory_find(candidate.encoder) {
                gst_object_unref(UnsafeMutableRawPointer(factory))
                return try PipelineFile.load(candidate.file)
            }
        }
        let first = h264Files[0]
        throw CameraError.missingElement(factory: first.encoder, package: ElementPackages.package(for: first.encoder),
                                         file: try PipelineDirectory.find() + "/" + first.file)
    }

    /// Parses `file` (which ends in an appsink named `network-sink`) and links it to a new pad of `tee` in the
    /// running `pipeline`.
    init(pipeline: Element, tee: Element, file: PipelineFile, parameters: [String: String]) throws {
        let bin = try PipelineParser.parseBin(try file.description(with: parameters), file: file.path)
        guard let sink = bin.child(named: Self.sinkName) else {
            throw CameraError.missingPipelineElement(file: file.path, name: Self.sinkName,
                                                     purpose: "the appsink that receives the encoded stream")
        }
        guard gstcam_is_app_sink(sink.pointer) != 0, let sinkInput = sink.staticPad("sink") else {
            throw CameraError.badPipelineFile(file: file.path, detail: "the element named \"\(Self.sinkName)\" must be an appsink")
        }
        guard let branchInput = bin.staticPad("sink") else {
            throw CameraError.badPipelineFile(file: file.path, detail: "the branch must start with an unlinked sink pad and end in \(Self.sinkName)")
        }
        // Encoded samples go straight to the subscribers: no clock, no preroll, nothing kept.
        sink.set("sync", false)
        sink.set("async", false)
        sink.set("emit-signals", false)
        sink.set("enable-last-sample", false)
        sink.set("drop", true)
        sink.set("max-buffers", UInt32(2))
        guard let teePad = tee.requestPad("src_%u") else {
            throw CameraError.badPipelineFile(file: file.path, detail: "the tee \"split\" gave no new branch pad")
        }
        self.pipeline = pipeline
        self.tee = tee
        self.bin = bin
        self.teePad = teePad
        self.branchInput = branchInput
        self.sinkInput = sinkInput
        path = file.path
        AppSink.setSampleHandler(sink) { [weak self] sample in self?.deliver(sample) }
        teePad.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { [weak self] _ in
            self?.gateOpen.load(ordering: .relaxed) == true ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP
        }
        // The branch takes the stream as it is (it converts what it needs), so its linking must not make the
        // camera renegotiate: a real driver (vivid) refuses a new format while the photo branch holds one of its
        // buffers (EBUSY), which would end the session.
        teePad.addProbe(GST_PAD_PROBE_TYPE_EVENT_UPSTREAM) { probe in
            guard let event = gstcam_probe_info_event(probe.info) else { return GST_PAD_PROBE_OK }
            return gstcam_event_type(event) == GST_EVENT_RECONFIGURE ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK
        }
        guard pipeline.add(bin) else {
            tee.releaseRequestPad(teePad)
            throw CameraError.stateChangeFailed(to: "PLAYING", detail: "the network branch \(file.path) could not join the pipeline")
        }
        // Running before linked, as the photo branch (PhotoBranch.init says why).
        guard bin.syncStateWithParent(), teePad.link(to: branchInput) == .ok else {
            remove()
            throw CameraError.negotiationFailed(device: nil, detail: "the network branch \(file.path) could not be linked to the tee")
        }
    }

    /// Starts sending encoded samples to `handler` (from the next keyframe on, which is asked for now); returns
    /// the id for `unsubscribe`.
    public func subscribe(_ handler: @escaping Handler) -> Int {
        let id = state.withLock { state in
            state.nextID += 1
            state.handlers[state.nextID] = handler
            return state.nextID
        }
        gateOpen.store(true, ordering: .relaxed)
        requestKeyFrame()
        return id
    }

    /// Stops sending to a subscriber; the last one leaving stops the encoding.
    public func unsubscribe(_ id: Int) {
        state.withLock { state in
            state.handlers[id] = nil
            if state.handlers.isEmpty { gateOpen.store(false, ordering: .relaxed) }
        }
    }

    /// The number of subscribers now.
    public var subscriberCount: Int { state.withLock { $0.handlers.count } }

    /// Asks the encoder for a keyframe (with the stream's headers) as soon as it can: a viewer that just
    /// joined starts there instead of waiting for the next scheduled one.
    public func requestKeyFrame() {
        let event = gst_video_event_new_upstream_force_key_unit(gstcam_clock_time_none(), 1, 0)
        _ = gst_pad_push_event(sinkInput.pointer, event)
    }

    private func deliver(_ sample: OpaquePointer) {
        let handlers = state.withLock { Array($0.handlers.values) }
        for handler in handlers { handler(sample) }
    }

    /// Unlinks and removes the branch (the server stopped); subscribers get nothing more.
    public func remove() {
        let first = state.withLock { state in
            defer { state.removed = true; state.handlers = [:] }
            return !state.removed
        }
        guard first else { return }
        gateOpen.store(false, ordering: .relaxed)
        teePad.unlink(from: branchInput)
        tee.releaseRequestPad(teePad)
        bin.setState(GST_STATE_NULL)
        _ = pipeline.remove(bin)
    }
}
