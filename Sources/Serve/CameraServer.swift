import CGStreamer
import CameraErrors
import GStreamer
import PipelineFiles
import Session
import Screen
import Synchronization

/// Serves a running camera session: RTSP (one shared H.264 encode for every client) and, with `httpPort`, the
/// web camera page and its JSON API. The session keeps its preview and photos meanwhile; the encoders work
/// only while someone watches.
public final class CameraServer: Sendable {
    public let configuration: ServeConfiguration
    private let cameraOperator: CameraOperator

    private struct Running: Sendable {
        let loop: GLibLoop
        var rtsp: RTSPServer?
        var http: WebServer?
        var h264: BranchFeed?
        var mjpeg: BranchFeed?
        var publisher: Publisher?
    }

    private let running = Mutex<Running?>(nil)

    /// Told what publishing does ("publishing to …", "… stopped (…); trying again").
    private let publishEvents: @Sendable (String) -> Void

    public init(operator cameraOperator: CameraOperator, configuration: ServeConfiguration = ServeConfiguration(),
                publishEvents: @escaping @Sendable (String) -> Void = { _ in }) {
        self.cameraOperator = cameraOperator
        self.publishEvents = publishEvents
        self.configuration = configuration
    }

    /// Starts serving the operator's session, which must be running. Throws (and serves nothing) when a
    /// server cannot listen or a branch cannot be made.
    public func start() throws {
        if let problem = configuration.problem() {
            throw CameraError.serveFailed(what: "gstcam serve", address: configuration.address,
                                          port: configuration.rtspPort ?? configuration.httpPort ?? 0, detail: problem)
        }
        let session = cameraOperator.session
        let loop = GLibLoop(name: "gstcam-serve")
        var made = Running(loop: loop, rtsp: nil, http: nil, h264: nil, mjpeg: nil, publisher: nil)
        do {
            // H.264 for RTSP and for the page's WebRTC view: one encode, made only while someone watches.
            let h264 = BranchFeed(try session.addNetworkBranch(try NetworkBranch.h264File(), kbps: configuration.kbps))
            made.h264 = h264
            if let port = configuration.rtspPort {
                let branch = h264
                let server = try RTSPServer(loop: loop, address: configuration.address, port: port,
                                            credentials: configuration.credentials, maxViewers: configuration.maxViewers)
                made.rtsp = server
                try server.mount(path: configuration.path, branch: branch, media: try PipelineFile.load("rtsp-h264.media"),
                                 authenticated: configuration.credentials != nil)
            }
            if let port = configuration.httpPort {
                let branch = BranchFeed(try session.addNetworkBranch(try PipelineFile.load("network-mjpeg.branch")))
                made.mjpeg = branch
                made.http = try WebServer(loop: loop, address: configuration.address, port: port,
                                          credentials: configuration.credentials, cameraOperator: cameraOperator,
                                          mjpeg: branch, h264: h264, rtspURL: made.rtsp.map { "rtsp://\(Self.host($0.address)):\($0.port)/\(configuration.path)" },
                                          tls: configuration.tls, maxViewers: configuration.maxViewers)
            }
            if let url = configuration.publish {
                made.publisher = try Publisher(url: url, feed: h264, events: publishEvents)
            }
        } catch {
            Self.stop(made)
            throw error
        }
        running.withLock { $0 = made }
    }

    /// Serves `session` from now on (the camera came back in a new session; the operator already uses it):
    /// its new branches take over every viewer, who carry on without reconnecting.
    public func follow(_ session: CameraSession) throws {
        let (h264, mjpeg) = running.withLock { ($0?.h264, $0?.mjpeg) }
        if let h264 { h264.replace(with: try session.addNetworkBranch(try NetworkBranch.h264File(), kbps: configuration.kbps)) }
        if let mjpeg { mjpeg.replace(with: try session.addNetworkBranch(try PipelineFile.load("network-mjpeg.branch"))) }
    }

    /// rtsp://ADDRESS:PORT/PATH, once serving RTSP.
    public var rtspURL: String? {
        running.withLock { $0?.rtsp }.map { "rtsp://\(Self.host($0.address)):\($0.port)/\(configuration.path)" }
    }

    /// http://ADDRESS:PORT/ (https with TLS), once serving the web page.
    public var httpURL: String? {
        running.withLock { $0?.http }.map { "\(configuration.tls == nil ? "http" : "https")://\(Self.host($0.address)):\($0.port)/" }
    }

    /// An IPv6 address in brackets, as URLs write it.
    private static func host(_ address: String) -> String { address.contains(":") ? "[\(address)]" : address }

    /// Stops both servers (clients are disconnected) and removes the encoding branches. Safe to call twice.
    public func stop() {
        if let made = running.withLock({ $0.take() }) { Self.stop(made) }
    }

    private static func stop(_ made: Running) {
        made.publisher?.stop()
        made.rtsp?.stop()
        made.http?.stop()
        made.h264?.remove()
        made.mjpeg?.remove()
        made.loop.stop()
    }

    deinit { stop() }
}
