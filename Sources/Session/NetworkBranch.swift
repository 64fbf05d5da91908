import CGStreamer
import Synchronization
import CameraErrors
import GStreamer
import PipelineFiles

/// An encoding branch kept linked at the session's tee while something serves the camera: H.264 for RTSP, WebRTC
/// and publishing (pipelines/network-x264.branch, network-openh264.branch) or JPEG for the web page's live view
/// (network-mjpeg.branch). One encode, however many viewers: each encoded sample goes to every subscriber.
///
/// The tee's frames pass into the branch only while it has a subscriber (a probe on its tee pad drops them
/// otherwise; caps and other events still pass), so an idle server encodes nothing. A new subscriber asks the
/// encoder for a keyframe, where a decoder can start. The branch is added and removed through the session's
/// tee-branch owner (`CameraSession.attachBranch`).
public final class NetworkBranch: Sendable {
    /// A subscriber's handler: runs on the branch's streaming thread with the sample borrowed for the call. It
    /// must not block (push into a leaky queue, or copy and hand over) and must never throw into C.
    public typealias Handler = @Sendable (OpaquePointer) -> Void

    private let relay = Relay()
    private let session: CameraSession
    private let branch: TeeBranch
    private let sinkInput: Pad
    private let removed = Atomic<Bool>(false)
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

    /// Parses `file` (which ends in an appsink named `network-sink`) and attaches it to the running session's tee.
    init(session: CameraSession, file: PipelineFile, parameters: [String: String]) throws {
        let (bin, sink, input) = try PipelineContract.appSinkBranch(file, parameters: parameters, sinkName: Self.sinkName,
                                                                    purpose: "the appsink that receives the encoded stream",
                                                                    inputCaps: session.branchInputCaps)
        // An appsink always has its sink pad.
        let sinkInput = sink.staticPad("sink")!
        // Encoded samples go straight to the subscribers: no clock, no preroll, nothing kept.
        sink.set("sync", false)
        sink.set("async", false)
        sink.set("emit-signals", false)
        sink.set("enable-last-sample", false)
        sink.set("drop", true)
        sink.set("max-buffers", UInt32(2))
        let relay = relay
        AppSink.setSampleHandler(sink) { sample in relay.deliver(sample) }
        self.session = session
        self.sinkInput = sinkInput
        path = file.path
        branch = try session.attachBranch(bin, input: input, what: "The network branch \(file.path)") { teePad in
            teePad.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { _ in relay.isOpen ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP }
            // The branch takes the stream as it is (it converts what it needs), so its linking must not make the
            // camera renegotiate: a real driver (vivid) refuses a new format while the photo branch holds one of
            // its buffers (EBUSY), which would end the session.
            teePad.addProbe(GST_PAD_PROBE_TYPE_EVENT_UPSTREAM) { probe in
                guard let event = gstcam_probe_info_event(probe.info) else { return GST_PAD_PROBE_OK }
                return gstcam_event_type(event) == GST_EVENT_RECONFIGURE ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK
            }
        }
    }

    /// Starts sending encoded samples to `handler` (from the next keyframe on, which is asked for now); returns
    /// the id for `unsubscribe`.
    public func subscribe(_ handler: @escaping Handler) -> Int {
        let id = relay.add(handler)
        requestKeyFrame()
        return id
    }

    /// Stops sending to a subscriber; the last one leaving stops the encoding.
    public func unsubscribe(_ id: Int) { relay.remove(id) }

    /// The number of subscribers now.
    public var subscriberCount: Int { relay.count }

    /// Asks the encoder for a keyframe (with the stream's headers) as soon as it can: a viewer that just
    /// joined starts there instead of waiting for the next scheduled one.
    public func requestKeyFrame() {
        let event = gst_video_event_new_upstream_force_key_unit(gstcam_clock_time_none(), 1, 0)
        _ = gst_pad_push_event(sinkInput.pointer, event)
    }

    /// Takes the branch out of the pipeline (the server stopped); subscribers get nothing more.
    public func remove() {
        guard !removed.exchange(true, ordering: .relaxed) else { return }
        relay.removeAll()
        session.detachBranch(branch)
    }
}

/// The subscribers of one branch, and whether frames may enter it (while there is one).
private final class Relay: Sendable {
    private struct State {
        var handlers: [Int: NetworkBranch.Handler] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())
    private let open = Atomic<Bool>(false)

    var isOpen: Bool { open.load(ordering: .relaxed) }
    var count: Int { state.withLock { $0.handlers.count } }

    func add(_ handler: @escaping NetworkBranch.Handler) -> Int {
        let id = state.withLock { state in
            state.nextID += 1
            state.handlers[state.nextID] = handler
            return state.nextID
        }
        open.store(true, ordering: .relaxed)
        return id
    }

    func remove(_ id: Int) {
        state.withLock { state in
            state.handlers[id] = nil
            if state.handlers.isEmpty { open.store(false, ordering: .relaxed) }
        }
    }

    func removeAll() {
        state.withLock { $0.handlers = [:] }
        open.store(false, ordering: .relaxed)
    }

    func deliver(_ sample: OpaquePointer) {
        let handlers = state.withLock { Array($0.handlers.values) }
        for handler in handlers { handler(sample) }
    }
}
