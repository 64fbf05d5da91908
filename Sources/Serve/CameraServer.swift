import CGStreamer
import CameraErrors
import GStreamer
import PipelineFiles
import Session
import Screen
import Synchronization

/// Serves running camera sessions: RTSP (one shared H.264 encode per camera for every client, one path per
/// camera) and, with `httpPort`, the web camera page and its JSON API (the page picks the camera). Each session
/// keeps its preview and photos meanwhile; the encoders work only while someone watches.
public final class CameraServer: Sendable {
    public let configuration: ServeConfiguration
    /// The cameras served, in order; the first is the page's and the API's default.
    public let cameras: [ServedCamera]

    /// The encoding branches of one served camera.
    private struct Feeds: Sendable {
        let camera: ServedCamera
        let h264: BranchFeed
        var mjpeg: BranchFeed?
    }

    private struct Running: Sendable {
        let loop: GLibLoop
        var rtsp: RTSPServer?
        var http: WebServer?
        var feeds: [Feeds] = []
        var publisher: Publisher?
    }

    private let running = Mutex<Running?>(nil)

    /// Told what publishing does ("publishing to …", "… stopped (…); trying again").
    private let publishEvents: @Sendable (String) -> Void

    /// Serves one camera at `configuration.path`.
    public convenience init(operator cameraOperator: CameraOperator, configuration: ServeConfiguration = ServeConfiguration(),
                            publishEvents: @escaping @Sendable (String) -> Void = { _ in }) {
        self.init(cameras: [ServedCamera(name: configuration.path, operator: cameraOperator)], configuration: configuration,
                  publishEvents: publishEvents)
    }

    /// Serves each camera at its name (`configuration.path` is not used).
    public init(cameras: [ServedCamera], configuration: ServeConfiguration = ServeConfiguration(),
                publishEvents: @escaping @Sendable (String) -> Void = { _ in }) {
        self.cameras = cameras
        self.publishEvents = publishEvents
        self.configuration = configuration
    }

    /// A reason the cameras cannot be served: no camera, a name that is not plain, two cameras with one name.
    private func cameraProblem() -> String? {
        if cameras.isEmpty { return "there is no camera to serve" }
        if let bad = cameras.first(where: { !ServeConfiguration.isPlainName($0.name) }) {
            return "the camera name \"\(bad.name)\" must be a plain name (letters, digits, - _ .)"
        }
        if Set(cameras.map(\.name)).count != cameras.count {
            return "two cameras have the same name (\(cameras.map(\.name).joined(separator: ", "))): give each its own with --path"
        }
        return nil
    }

    /// Starts serving the operators' sessions, which must be running. Throws (and serves nothing) when a
    /// server cannot listen or a branch cannot be made.
    public func start() throws {
        if let problem = configuration.problem() ?? cameraProblem() {
            throw CameraError.serveFailed(what: "gstcam serve", address: configuration.address,
                                          port: configuration.rtspPort ?? configuration.httpPort ?? 0, detail: problem)
        }
        let loop = GLibLoop(name: "gstcam-serve")
        var made = Running(loop: loop)
        do {
            for camera in cameras {
                // H.264 for RTSP and for the page's WebRTC view: one encode, made only while someone watches.
                let session = camera.cameraOperator.session
                var feeds = Feeds(camera: camera, h264: BranchFeed(try session.addNetworkBranch(try NetworkBranch.h264File(),
                                                                                                kbps: configuration.kbps)))
                if configuration.httpPort != nil {
                    feeds.mjpeg = BranchFeed(try session.addNetworkBranch(try PipelineFile.load("network-mjpeg.branch")))
                }
                made.feeds.append(feeds)
            }
            if let port = configuration.rtspPort {
                let server = try RTSPServer(loop: loop, address: configuration.address, port: port,
                                            credentials: configuration.credentials, maxViewers: configuration.maxViewers,
                                            tls: configuration.tls)
                made.rtsp = server
                for feeds in made.feeds {
                    try server.mount(path: feeds.camera.name, branch: feeds.h264, media: try PipelineFile.load("rtsp-h264.media"),
                                     authenticated: configuration.credentials != nil || configuration.tls != nil)
                }
            }
            if let port = configuration.httpPort {
                let rtsp = made.rtsp
                let webCameras = made.feeds.compactMap { feeds in
                    feeds.mjpeg.map { mjpeg in
                        WebCamera(loop: loop, name: feeds.camera.name, cameraOperator: feeds.camera.cameraOperator, mjpeg: mjpeg,
                                  h264: feeds.h264, rtspURL: rtsp.map { Self.url($0, path: feeds.camera.name) })
                    }
                }
                made.http = try WebServer(loop: loop, address: configuration.address, port: port,
                                          credentials: configuration.credentials, cameras: webCameras,
                                          tls: configuration.tls, maxViewers: configuration.maxViewers)
            }
            if let url = configuration.publish, let first = made.feeds.first {
                made.publisher = try Publisher(url: url, feed: first.h264, events: publishEvents)
            }
        } catch {
            Self.stop(made)
            throw error
        }
        running.withLock { $0 = made }
    }

    /// Serves `session` from now on for the camera named `name` (the first when nil): the camera came back in a
    /// new session, which its operator already uses. Its new branches take over every viewer, who carry on
    /// without reconnecting.
    public func follow(_ session: CameraSession, camera name: String? = nil) throws {
        guard let feeds = running.withLock({ $0?.feeds.first { name == nil || $0.camera.name == name } }) else { return }
        feeds.h264.replace(with: try session.addNetworkBranch(try NetworkBranch.h264File(), kbps: configuration.kbps))
        if let mjpeg = feeds.mjpeg { mjpeg.replace(with: try session.addNetworkBranch(try PipelineFile.load("network-mjpeg.branch"))) }
    }

    /// rtsp://ADDRESS:PORT/NAME of the first camera, once serving RTSP.
    public var rtspURL: String? { rtspURLs.first?.url }

    /// Each camera's name and rtsp://ADDRESS:PORT/NAME, once serving RTSP.
    public var rtspURLs: [(name: String, url: String)] {
        guard let server = running.withLock({ $0?.rtsp }) else { return [] }
        return cameras.map { ($0.name, Self.url(server, path: $0.name)) }
    }

    private static func url(_ server: RTSPServer, path: String) -> String {
        "\(server.isTLS ? "rtsps" : "rtsp")://\(host(server.address)):\(server.port)/\(path)"
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
        for feeds in made.feeds {
            feeds.h264.remove()
            feeds.mjpeg?.remove()
        }
        made.loop.stop()
    }

    deinit { stop() }
}
