import CGStreamer
import CameraErrors
import GStreamer
import PipelineFiles
import Session
import CRTSPServer
import Synchronization

/// The RTSP side of `gstcam serve`: GStreamer's own server library (gst-rtsp-server) with one shared media per
/// camera path. The media (pipelines/rtsp-h264.media) starts at an appsrc fed by the session's H.264 network
/// branch, so every client gets the same encode; the server payloads it once and sends it to each client over
/// UDP or TCP. The branch encodes only while a media exists (a client is connected).
final class RTSPServer: Sendable {
    /// `@unchecked Sendable`: the server and mount-point objects are used only on the loop's thread (every
    /// call below goes through `loop.sync`), and GObject reference counting is atomic.
    private struct Handles: @unchecked Sendable {
        let server: UnsafeMutablePointer<GstRTSPServer>
        let source: guint
    }

    private let loop: GLibLoop
    private let handles: Handles
    private let mounts: RTSPMounts
    private let stopped = Atomic<Bool>(false)
    /// The address and port the server listens on (the port the system chose when 0 was asked).
    let address: String
    let port: Int
    /// Whether clients must speak TLS (rtsps://).
    let isTLS: Bool

    /// Listens on `address`:`port` (0: any free port). With `credentials`, clients must authenticate (RTSP
    /// digest for a user/password; a token is the password of the user "token").
    /// With `tls`, the server speaks RTSP over TLS only (rtsps://): the certificate is the auth object's.
    init(loop: GLibLoop, address: String, port: Int, credentials: ServeCredentials?, maxViewers: Int = 16,
         tls: ServeConfiguration.TLSFiles? = nil) throws {
        self.loop = loop
        self.address = address
        isTLS = tls != nil
        let mounts = RTSPMounts(maxViewers: maxViewers)
        self.mounts = mounts
        let made: (Handles, Int) = try loop.sync {
            let server = gst_rtsp_server_new()!
            gst_rtsp_server_set_address(server, address)
            gst_rtsp_server_set_service(server, "\(port)")
            // Each client on a thread of its own (RTSPClientThreads); past the cap (room for each allowed viewer
            // and as many connections being refused), clients share threads.
            let threads = mounts.clientThreads.makePool(maxThreads: 2 * max(maxViewers, 8))
            gst_rtsp_server_set_thread_pool(server, threads)
            g_object_unref(threads)
            // Always an auth object: its check refuses oversized request headers (RTSPHeaderLimit).
            let auth = RTSPHeaderLimit.makeAuth(checksCredentials: credentials != nil || tls != nil)
            if credentials != nil || tls != nil {
                let token = gstcam_rtsp_token_with_role(RTSPMount.viewerRole)
                if let credentials {
                    let (user, password) = credentials.userAndPassword
                    gst_rtsp_auth_add_digest(auth, user, password, token)
                    gst_rtsp_auth_set_supported_methods(auth, GST_RTSP_AUTH_DIGEST)
                } else {
                    // TLS without credentials: every client may play (the auth object is there for the certificate).
                    gst_rtsp_auth_set_default_token(auth, token)
                }
                gst_rtsp_token_unref(token)
                if let tls {
                    var error: UnsafeMutablePointer<GError>?
                    guard let certificate = g_tls_certificate_new_from_files(tls.certificate, tls.key, &error) else {
                        let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
                        if let error { g_error_free(error) }
                        g_object_unref(auth)
                        g_object_unref(server)
                        throw CameraError.serveFailed(what: "The RTSP server", address: address, port: port,
                                                      detail: "the TLS certificate \(tls.certificate) or its key \(tls.key) cannot be used: \(message)")
                    }
                    gst_rtsp_auth_set_tls_certificate(auth, certificate)
                    g_object_unref(certificate)
                }
            }
            gst_rtsp_server_set_auth(server, auth)
            g_object_unref(auth)
            let source = gst_rtsp_server_attach(server, GLibLoop.currentContext)
            guard source != 0 else {
                g_object_unref(server)
                throw CameraError.serveFailed(what: "The RTSP server", address: address, port: port,
                                              detail: "it could not listen there (the port may be in use by another program)")
            }
            gstcam_rtsp_server_on_client_connected(server, { _, client, data in
                guard let client, let data else { return }
                let mounts = Unmanaged<RTSPMounts>.fromOpaque(data).takeUnretainedValue()
                mounts.clientConnected()
                gstcam_rtsp_client_on_closed(client, { client, data in
                    guard let client, let data else { return }
                    Unmanaged<RTSPMounts>.fromOpaque(data).takeUnretainedValue().clientClosed(client)
                }, Unmanaged<RTSPMounts>.fromOpaque(data).retain().toOpaque(), { data, _ in
                    if let data { Unmanaged<RTSPMounts>.fromOpaque(data).release() }
                })
                // A client given a session (its SETUP) is a viewer; past the limit of viewers, a client that is not
                // one yet is refused with 503 Service Unavailable when it asks for the stream. Connections that
                // never set a stream up take no viewer's place.
                gstcam_rtsp_client_on_new_session(client, { client, _, data in
                    guard let client, let data else { return }
                    Unmanaged<RTSPMounts>.fromOpaque(data).takeUnretainedValue().clientBecameViewer(client)
                }, Unmanaged<RTSPMounts>.fromOpaque(data).retain().toOpaque(), { data, _ in
                    if let data { Unmanaged<RTSPMounts>.fromOpaque(data).release() }
                })
                gstcam_rtsp_client_on_pre_describe_request(client, { client, _, data in
                    guard let client, let data else { return GST_RTSP_STS_OK }
                    let full = Unmanaged<RTSPMounts>.fromOpaque(data).takeUnretainedValue().hasNoRoom(for: client)
                    return full ? GST_RTSP_STS_SERVICE_UNAVAILABLE : GST_RTSP_STS_OK
                }, Unmanaged<RTSPMounts>.fromOpaque(data).retain().toOpaque(), { data, _ in
                    if let data { Unmanaged<RTSPMounts>.fromOpaque(data).release() }
                })
                // A viewer starting to play gets a keyframe at once instead of waiting for the next one.
                gstcam_rtsp_client_on_play_request(client, { _, _, data in
                    guard let data else { return }
                    Unmanaged<RTSPMounts>.fromOpaque(data).takeUnretainedValue().requestKeyFrames()
                }, Unmanaged<RTSPMounts>.fromOpaque(data).retain().toOpaque(), { data, _ in
                    if let data { Unmanaged<RTSPMounts>.fromOpaque(data).release() }
                })
            }, Unmanaged.passRetained(mounts).toOpaque(), { data, _ in
                if let data { Unmanaged<RTSPMounts>.fromOpaque(data).release() }
            })
            return (Handles(server: server, source: source), Int(gst_rtsp_server_get_bound_port(server)))
        }
        handles = made.0
        self.port = made.1
    }

    /// Serves `branch` (an H.264 network branch) at rtsp://ADDRESS:PORT/`path`, with `media` as the media's
    /// launch description.
    func mount(path: String, branch: BranchFeed, media: PipelineFile, authenticated: Bool) throws {
        let description = try media.description(with: [:])
        // Parsed once here so a missing element or a typo is reported now, naming the file, not per client.
        _ = try PipelineParser.parseBin(description, file: media.path)
        let mount = RTSPMount(branch: branch, path: media.path)
        let handles = handles
        try loop.sync {
            let factory = gst_rtsp_media_factory_new()!
            gst_rtsp_media_factory_set_launch(factory, description)
            gst_rtsp_media_factory_set_shared(factory, 1)
            if authenticated { gstcam_rtsp_factory_allow_role(factory, RTSPMount.viewerRole) }
            gstcam_rtsp_factory_on_media_configure(factory, { _, media, data in
                guard let media, let data else { return }
                Unmanaged<RTSPMount>.fromOpaque(data).takeUnretainedValue().configure(media)
            }, Unmanaged.passRetained(mount).toOpaque(), { data, _ in
                if let data { Unmanaged<RTSPMount>.fromOpaque(data).release() }
            })
            guard let points = gst_rtsp_server_get_mount_points(handles.server) else {
                g_object_unref(factory)
                throw CameraError.serveFailed(what: "The RTSP server", address: self.address, port: self.port,
                                              detail: "it has no mount points")
            }
            gst_rtsp_mount_points_add_factory(points, "/" + path, factory)
            g_object_unref(points)
        }
        mounts.add(mount)
    }

    /// Closes every client connection, stops listening and stops feeding the media. Safe to call twice.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        let handles = handles, clientThreads = mounts.clientThreads
        try? loop.sync {
            if let source = g_main_context_find_source_by_id(GLibLoop.currentContext, handles.source) {
                g_source_destroy(source)
            }
            // Every client is closed on its own thread (RTSPClientThreads), its session and media let go.
            let clients = gst_rtsp_server_client_filter(handles.server, { _, _, _ in GST_RTSP_FILTER_REF }, nil)
            var next = clients
            while let item = next {
                if let client = item.pointee.data?.assumingMemoryBound(to: GstRTSPClient.self) {
                    clientThreads.close(client)
                    g_object_unref(client)
                }
                next = item.pointee.next
            }
            g_list_free(clients)
            g_object_unref(handles.server)
        }
        // The closes run on the clients' threads: wait for them, so that no client outlives the server's stop.
        let deadline = ContinuousClock.now + .seconds(2)
        while mounts.connectedClients > 0, ContinuousClock.now < deadline { usleep(5_000) }
        mounts.stopFeeding()
    }

    deinit { stop() }
}

/// The mounts of one server, also reached from its client signals (the keyframe request on PLAY).
private final class RTSPMounts: Sendable {
    private let mounts = Mutex<[RTSPMount]>([])
    private let clients = Mutex(0)
    /// The clients that were given a session, by address (removed when they close).
    private let viewers = Mutex<Set<UInt>>([])
    let maxViewers: Int

    init(maxViewers: Int) { self.maxViewers = maxViewers }

    /// Which thread each client runs on (the server's thread pool).
    let clientThreads = RTSPClientThreads()

    func clientConnected() { clients.withLock { $0 += 1 } }
    func clientBecameViewer(_ client: UnsafeMutablePointer<GstRTSPClient>) {
        _ = viewers.withLock { $0.insert(UInt(bitPattern: client)) }
    }
    func clientClosed(_ client: UnsafeMutablePointer<GstRTSPClient>) {
        clients.withLock { $0 -= 1 }
        _ = viewers.withLock { $0.remove(UInt(bitPattern: client)) }
        clientThreads.forget(client)
    }
    var connectedClients: Int { clients.withLock { $0 } }
    /// As many viewers as allowed are watching, and `client` is not one of them.
    func hasNoRoom(for client: UnsafeMutablePointer<GstRTSPClient>) -> Bool {
        viewers.withLock { $0.count >= maxViewers && !$0.contains(UInt(bitPattern: client)) }
    }

    func add(_ mount: RTSPMount) { mounts.withLock { $0.append(mount) } }

    func requestKeyFrames() {
        for mount in mounts.withLock({ $0 }) { mount.branch.requestKeyFrame() }
    }

    func stopFeeding() {
        for mount in mounts.withLock({ $0 }) { mount.stopFeeding() }
    }
}

/// One served camera path: feeds the shared media's appsrc from the network branch while the media exists.
final class RTSPMount: Sendable {
    /// The role a client that authenticated gets, allowed to play the camera's media.
    static let viewerRole = "viewer"
    /// The appsrc the media file must name.
    static let sourceName = "network-source"

    let branch: BranchFeed
    /// The media file, for messages.
    let path: String
    /// The subscription of each media being fed, by the media's address.
    private let feeds = Mutex<[UInt: Int]>([:])

    init(branch: BranchFeed, path: String) {
        self.branch = branch
        self.path = path
    }

    /// A new media (the first client of the path, or the first after the last one left): its appsrc is fed
    /// from the branch until the media is unprepared.
    func configure(_ media: UnsafeMutablePointer<GstRTSPMedia>) {
        guard let bin = gst_rtsp_media_get_element(media) else { return }
        defer { gst_object_unref(bin) }
        Self.addSinksWithoutPreroll(toPipelineOf: bin)
        guard let found = gst_bin_get_by_name_recurse_up(gstcam_rtsp_as_bin(bin), Self.sourceName) else { return }
        let source = Element(owning: found)
        guard gstcam_rtsp_is_app_src(source.pointer) != 0 else { return }
        Self.configure(appSource: source)
        let key = UInt(bitPattern: media)
        let id = branch.subscribe { sample in Self.push(sample, into: source) }
        feeds.withLock { $0[key] = id }
        gstcam_rtsp_media_on_unprepared(media, { media, data in
            guard let media, let data else { return }
            Unmanaged<RTSPMount>.fromOpaque(data).takeUnretainedValue().unprepared(media)
        }, Unmanaged.passRetained(self).toOpaque(), { data, _ in
            if let data { Unmanaged<RTSPMount>.fromOpaque(data).release() }
        })
    }

    /// gst-rtsp-server adds a sink to the shared media's running pipeline when the first viewer over UDP, and the
    /// first over TCP, sets up, and links it only once its tee is next idle. Such a sink prerolls by default: the
    /// live pipeline loses PLAYING until the sink has a buffer, and a sink added meanwhile only reaches PAUSED. In a
    /// stalled run of sixteen viewers joining at once (see `keepRunningTimes`) the media was left PAUSED for good,
    /// its UDP sink waiting to be linked behind a tee that never went idle. A live stream needs no preroll, and the
    /// library's own RTCP sinks already skip it: every sink in the media joins without it (async=false), so the
    /// pipeline stays PLAYING while viewers come and go.
    static func addSinksWithoutPreroll(toPipelineOf bin: UnsafeMutablePointer<GstElement>) {
        guard let parent = gst_object_get_parent(UnsafeMutableRawPointer(bin).assumingMemoryBound(to: GstObject.self)) else { return }
        defer { gst_object_unref(parent) }
        let pipeline = UnsafeMutableRawPointer(parent).assumingMemoryBound(to: GstElement.self)
        gstcam_rtsp_bin_on_deep_element_added(gstcam_rtsp_as_bin(pipeline), { _, _, element, _ in
            guard let element, gstcam_rtsp_is_base_sink(element) != 0 else { return }
            gstcam_rtsp_set_bool(element, "async", 0)
        }, nil, nil)
    }

    /// Now and then (2 runs in about 220 of sixteen viewers joining at once, docs/serve.md) the frame a new media
    /// starts with left its appsrc stamped with the clock's absolute time (the machine's uptime, 23 h) instead of a
    /// running time. An RTP sink then waited 23 h before sending it, so no viewer got a frame. A running time cannot
    /// exceed the time since the appsrc was set up: a frame stamped later than that is stamped again with the
    /// running time now (0 while the media's pipeline has not started its clock yet).
    static func keepRunningTimes(of source: Element) {
        guard let clock = gst_system_clock_obtain() else { return }
        let setUp = gst_clock_get_time(clock)
        gst_object_unref(clock)
        // The address, not a reference: a reference held by its own pad's probe would keep the appsrc forever. The
        // probe runs only while the appsrc streams, so the address is valid whenever it runs.
        let address = UInt(bitPattern: source.pointer)
        source.staticPad("src")?.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { probe in
            guard let buffer = probe.buffer, let source = UnsafeMutablePointer<GstElement>(bitPattern: address),
                  let clock = gst_element_get_clock(source) else { return GST_PAD_PROBE_OK }
            let now = gst_clock_get_time(clock)
            gst_object_unref(clock)
            let stamped = gstcam_buffer_pts(buffer)
            guard stamped != gstcam_clock_time_none(), stamped > now &- setUp &+ 1_000_000_000 else { return GST_PAD_PROBE_OK }
            gstcam_rtsp_probe_stamp_buffer(probe.info, runningTime(now: now, of: source, startedAfter: setUp))
            return GST_PAD_PROBE_OK
        }
    }

    /// The media's running time at `now`, from its pipeline's base time (0 while that is older than `setUp`: the
    /// pipeline has not started its clock).
    private static func runningTime(now: GstClockTime, of source: UnsafeMutablePointer<GstElement>,
                                    startedAfter setUp: GstClockTime) -> GstClockTime {
        var base: GstClockTime = 0
        var ancestor = gst_object_get_parent(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GstObject.self))
        while let current = ancestor {
            base = gst_element_get_base_time(UnsafeMutableRawPointer(current).assumingMemoryBound(to: GstElement.self))
            ancestor = gst_object_get_parent(current)
            gst_object_unref(current)
        }
        return base >= setUp && now >= base ? now - base : 0
    }

    /// Sets up an appsrc that relays the H.264 branch (the RTSP media's, a WebRTC viewer's, the publisher's): a
    /// viewer that cannot keep up loses old frames there, never holding back the branch (or the camera); a frame
    /// it stamps with an impossible time gets the running time (`keepRunningTimes`).
    static func configure(appSource source: Element) {
        guard gstcam_rtsp_is_app_src(source.pointer) != 0 else { return }
        let appSource = gstcam_rtsp_as_app_src(source.pointer)
        gst_app_src_set_leaky_type(appSource, GST_APP_LEAKY_TYPE_DOWNSTREAM)
        gst_app_src_set_max_buffers(appSource, 30)
        if let caps = gst_caps_from_string("video/x-h264,stream-format=byte-stream,alignment=au") {
            gst_app_src_set_caps(appSource, caps)
            gst_caps_unref(caps)
        }
        keepRunningTimes(of: source)
    }

    /// Relays one encoded sample: a copy of the buffer's metadata (the encoded bytes are shared), stamped again by
    /// the appsrc in its own pipeline's running time (the two pipelines have different base times).
    static func push(_ sample: OpaquePointer, into source: Element) {
        guard gstcam_rtsp_is_app_src(source.pointer) != 0, let buffer = gst_sample_get_buffer(sample),
              let copy = gstcam_rtsp_buffer_copy(buffer) else { return }
        gstcam_rtsp_clear_timestamps(copy)
        _ = gst_app_src_push_buffer(gstcam_rtsp_as_app_src(source.pointer), copy)
    }

    private func unprepared(_ media: UnsafeMutablePointer<GstRTSPMedia>) {
        if let id = feeds.withLock({ $0.removeValue(forKey: UInt(bitPattern: media)) }) {
            branch.unsubscribe(id)
        }
    }

    func stopFeeding() {
        let ids = feeds.withLock { feeds in
            defer { feeds.removeAll() }
            return Array(feeds.values)
        }
        for id in ids { branch.unsubscribe(id) }
    }
}
