import CGStreamer
import CameraErrors
import GStreamer
import PipelineFiles
import Session
import Screen
import MediaFiles
import Reports
import Controls
import CSoup
import Foundation
import Synchronization

/// What the web server answers (docs/serve.md): the camera page, the JSON API, `/snapshot.jpg`, the gallery's
/// photos and videos and the live views. Requests about a camera name it with `?camera=NAME` (default: the first
/// served camera). Runs on the loop's thread; waits happen in tasks that answer later.
final class WebHandler: Sendable {
    private let loop: GLibLoop
    private let credentials: ServeCredentials?
    private let cameras: [WebCamera]
    private let maxViewers: Int
    /// The WebRTC viewers, by address.
    private let webRTCViewers = Mutex<[ObjectIdentifier: WebRTCViewer]>([:])
    /// The first camera's folders (every camera of one `gstcam serve` saves into the same ones).
    private let gallery: WebGallery

    init(loop: GLibLoop, credentials: ServeCredentials?, cameras: [WebCamera], maxViewers: Int) {
        precondition(!cameras.isEmpty, "a web server serves at least one camera")
        self.maxViewers = maxViewers
        self.loop = loop
        self.credentials = credentials
        self.cameras = cameras
        gallery = WebGallery(photos: cameras[0].cameraOperator.library, videos: cameras[0].cameraOperator.videos)
    }

    /// The paths of the API, for 405 on a wrong method.
    private static let apiPaths: Set<String> = ["/", "/api/status", "/api/cameras", "/snapshot.jpg", "/api/photo", "/api/zoom",
                                                "/stream.mjpg", "/api/torch", "/api/focus", "/api/camera/next", "/api/record",
                                                "/api/gallery"]

    func handle(_ request: WebRequest) {
        guard isAuthorized(request) else {
            request.setHeader("WWW-Authenticate", #"Basic realm="gstcam", charset="UTF-8""#)
            return request.respond(401, json: Self.errorJSON("This camera needs a token, or a user and password."))
        }
        guard let camera = camera(for: request) else {
            return request.respond(404, json: Self.errorJSON(
                "no camera named \"\(request.query["camera"] ?? "")\" is served here; cameras: \(cameras.map(\.name).joined(separator: ", "))"))
        }
        let cameraOperator = camera.cameraOperator
        switch (request.method, request.path) {
        case ("GET", "/"), ("GET", "/index.html"):
            request.respond(200, type: "text/html; charset=utf-8", body: Array(CameraPage.html.utf8))
        case ("GET", "/api/status"):
            request.respond(200, json: statusJSON(camera))
        case ("GET", "/api/cameras"):
            request.respond(200, json: JSONOutput.line(cameras.map { camera in
                let session = camera.cameraOperator.session
                return CameraAnswer(name: camera.name, camera: camera.cameraOperator.status().camera, device: session.device,
                                    state: session.state.description, rtsp: camera.rtspURL)
            }))
        case ("GET", "/snapshot.jpg"):
            answerLater(request) {
                do {
                    return (200, "image/jpeg", try await cameraOperator.session.snapshotJPEG())
                } catch {
                    return (503, "application/json", Array(Self.errorJSON("\(error)").utf8))
                }
            }
        case ("POST", "/api/photo"):
            perform(.capture(), on: camera, request)
        case ("POST", "/api/zoom"):
            guard let factor = request.query["factor"].flatMap(Double.init), factor.isFinite, factor >= 1 else {
                return request.respond(400, json: Self.errorJSON("give the zoom as ?factor=NUMBER (1 or more)"))
            }
            perform(.zoom(factor: factor), on: camera, request)
        case ("POST", "/api/torch"):
            guard let on = Self.onOff(request.query["on"]) else {
                return request.respond(400, json: Self.errorJSON("give the torch as ?on=1 or ?on=0"))
            }
            perform(.torch(on: on), on: camera, request)
        case ("POST", "/api/record"):
            guard let on = Self.onOff(request.query["on"]) else {
                return request.respond(400, json: Self.errorJSON("give the recording as ?on=1 (start) or ?on=0 (stop)"))
            }
            perform(on ? .startRecording(path: nil) : .stopRecording, on: camera, request)
        case ("POST", "/api/focus"):
            guard let x = request.query["x"].flatMap(Double.init), let y = request.query["y"].flatMap(Double.init),
                  (0...1).contains(x), (0...1).contains(y) else {
                return request.respond(400, json: Self.errorJSON("give the point as ?x=X&y=Y, each from 0 to 1 (of the picture)"))
            }
            perform(.focus(at: NormalizedPoint(x: x, y: y)), on: camera, request)
        case ("POST", "/api/camera/next"):
            perform(.nextCamera, on: camera, request)
        case ("GET", "/api/gallery"):
            do {
                let recording = Set(cameras.compactMap { $0.cameraOperator.session.currentRecording?.path })
                request.respond(200, json: JSONOutput.line(try gallery.entries(recording: recording)))
            } catch {
                request.respond(500, json: Self.errorJSON("\(error)"))
            }
        case ("GET", "/stream.mjpg"):
            guard liveViewers < maxViewers else { return refuseViewer(request) }
            camera.streams.add(request)
        case (let method, let path) where ["GET", "DELETE"].contains(method)
            && (path.hasPrefix(WebGallery.Kind.photo.prefix) || path.hasPrefix(WebGallery.Kind.video.prefix)):
            let kind: WebGallery.Kind = path.hasPrefix(WebGallery.Kind.photo.prefix) ? .photo : .video
            let name = String(path.dropFirst(kind.prefix.count))
            if method == "GET" { gallery.serve(kind, named: name, request) } else { gallery.delete(kind, named: name, request) }
        case (_, let path) where Self.apiPaths.contains(path):
            request.respond(405, json: Self.errorJSON("\(request.method) is not allowed on \(request.path)"))
        default:
            request.respond(404, json: Self.errorJSON("no such page: \(request.path)"))
        }
    }

    /// The camera a request names with `?camera=NAME`; the first without one; nil for a name not served.
    private func camera(for request: WebRequest) -> WebCamera? {
        guard let name = request.query["camera"] else { return cameras[0] }
        return cameras.first { $0.name == name }
    }

    /// 1/true/on or 0/false/off.
    private static func onOff(_ text: String?) -> Bool? {
        text.flatMap { ["1": true, "true": true, "on": true, "0": false, "false": false, "off": false][$0] }
    }

    /// Live views now: Motion-JPEG streams and WebRTC viewers.
    private var liveViewers: Int { cameras.reduce(0) { $0 + $1.streams.count } + webRTCViewers.withLock { $0.count } }

    private func refuseViewer(_ request: WebRequest) {
        request.setHeader("Retry-After", "10")
        request.respond(503, json: Self.errorJSON("This camera already has \(maxViewers) viewers; try again later."))
    }

    func endStreams() {
        for camera in cameras { camera.streams.endAll() }
        for viewer in webRTCViewers.withLock({ Array($0.values) }) { viewer.close() }
    }

    /// The largest WebSocket message a browser may send (bytes).
    static let maxSignallingMessage: guint64 = 64 * 1024

    /// A browser opened the WebRTC signalling socket: a viewer of its own, fed from the shared H.264 branch.
    func webSocket(_ connection: OpaquePointer, request: WebRequest) {
        // Signalling carries an SDP answer (a few KB; Chromium's, with every codec listed, under 20 KB) and ICE
        // candidates (under 1 KB). Anything larger is not signalling: libsoup refuses a frame whose header
        // announces more, before reading its payload (its default limit is 128 KB).
        soup_websocket_connection_set_max_incoming_payload_size(connection, Self.maxSignallingMessage)
        // libsoup then drops the connection without a close frame (the browser sees 1006, "abnormal"); its
        // "error" signal comes first, and a close sent there is written at once, so the browser reads 1009
        // (message too big) and why.
        gstcam_soup_websocket_on_error(connection, { connection, error, _ in
            guard let connection, let error, error.pointee.domain == gstcam_soup_websocket_error_domain(),
                  error.pointee.code == Int32(SOUP_WEBSOCKET_CLOSE_TOO_BIG.rawValue),
                  soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN else { return }
            soup_websocket_connection_close(connection, guint16(SOUP_WEBSOCKET_CLOSE_TOO_BIG.rawValue),
                                            "messages over \(WebHandler.maxSignallingMessage / 1024) KiB are refused")
        }, nil, nil)
        guard isAuthorized(request) else {
            soup_websocket_connection_close(connection, guint16(SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION.rawValue), "not authorized")
            return
        }
        guard liveViewers < maxViewers else {
            // 1013 "try again later" (RFC 6455's registry; libsoup names no constant for it).
            soup_websocket_connection_close(connection, 1013,
                                            "this camera already has \(maxViewers) viewers")
            return
        }
        guard let camera = camera(for: request) else {
            soup_websocket_connection_close(connection, guint16(SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION.rawValue), "no such camera")
            return
        }
        do {
            let viewer = try WebRTCViewer(loop: loop, connection: connection, feed: camera.h264,
                                          media: try PipelineFile.load("webrtc-h264.media")) { [weak self] viewer in
                _ = self?.webRTCViewers.withLock { $0.removeValue(forKey: ObjectIdentifier(viewer)) }
            }
            webRTCViewers.withLock { $0[ObjectIdentifier(viewer)] = viewer }
        } catch {
            soup_websocket_connection_close(connection, guint16(SOUP_WEBSOCKET_CLOSE_SERVER_ERROR.rawValue), "\(error)")
        }
    }

    /// Runs `work` in a task and answers the paused request with what it returns.
    private func answerLater(_ request: WebRequest, _ work: @escaping @Sendable () async -> (Int, String, [UInt8])) {
        request.pause()
        Task { [loop] in
            let (status, type, body) = await work()
            loop.async {
                request.respond(status, type: type, body: body)
                request.resume()
            }
        }
    }

    /// Does a camera action and answers with its outcome (500 when it failed, with the reason).
    private func perform(_ action: CameraAction, on camera: WebCamera, _ request: WebRequest) {
        answerLater(request) { [cameraOperator = camera.cameraOperator] in
            let outcome = await cameraOperator.perform(action)
            return (outcome.isError ? 500 : 200, "application/json", Array(Self.outcomeJSON(outcome).utf8))
        }
    }

    /// Basic authentication (the user and password, or the user "token" with the token), a bearer token, or
    /// ?token=TOKEN (what an <img> or a link can carry).
    private func isAuthorized(_ request: WebRequest) -> Bool {
        guard let credentials else { return true }
        let (user, password) = credentials.userAndPassword
        if case .token(let token) = credentials {
            if request.query["token"] == token { return true }
            if request.header("Authorization") == "Bearer " + token { return true }
        }
        guard let header = request.header("Authorization"), header.hasPrefix("Basic "),
              let data = Data(base64Encoded: String(header.dropFirst(6))) else { return false }
        return String(decoding: data, as: UTF8.self) == user + ":" + password
    }

    private func statusJSON(_ camera: WebCamera) -> String {
        let cameraOperator = camera.cameraOperator
        let session = cameraOperator.session
        cameraOperator.measureFrameRate()
        let status = cameraOperator.status()
        var error: String?
        // gstcam serve keeps serving and starts the camera again when it is back (the page's banner says so).
        if case .failed(let failure) = session.state { error = failure.description + " (Waiting for the camera to come back.)" }
        return JSONOutput.line(StatusAnswer(
            name: camera.name, camera: status.camera, device: status.device, state: session.state.description, error: error,
            width: status.width, height: status.height, fps: (status.framesPerSecond * 10).rounded() / 10, zoom: status.zoom,
            torch: status.torch, focus: status.focus, frames: status.frames, viewers: camera.streams.count, rtsp: camera.rtspURL,
            recording: status.recording.map { recording in
                RecordingAnswer(name: recording.path.split(separator: "/").last.map(String.init) ?? recording.path,
                                seconds: (recording.progress.duration.inSeconds * 10).rounded() / 10)
            }))
    }

    static func outcomeJSON(_ outcome: CameraActionOutcome) -> String { JSONOutput.line(ActionAnswer(outcome)) }

    static func errorJSON(_ message: String) -> String { JSONOutput.line(ErrorAnswer(error: message)) }
}
