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

/// What the web server answers (docs/serve.md): the camera page, the JSON API, `/snapshot.jpg`, gallery photos
/// and the Motion-JPEG live view. Runs on the loop's thread; waits happen in tasks that answer later.
final class WebHandler: Sendable {
    private let loop: GLibLoop
    private let credentials: ServeCredentials?
    private let cameraOperator: CameraOperator
    private let mjpeg: BranchFeed
    private let h264: BranchFeed
    private let maxViewers: Int
    /// The WebRTC viewers, by address.
    private let webRTCViewers = Mutex<[ObjectIdentifier: WebRTCViewer]>([:])
    private let rtspURL: String?
    private let streams: MJPEGStreams

    init(loop: GLibLoop, credentials: ServeCredentials?, cameraOperator: CameraOperator, mjpeg: BranchFeed, h264: BranchFeed,
         rtspURL: String?, maxViewers: Int) {
        self.h264 = h264
        self.maxViewers = maxViewers
        self.loop = loop
        self.credentials = credentials
        self.cameraOperator = cameraOperator
        self.mjpeg = mjpeg
        self.rtspURL = rtspURL
        streams = MJPEGStreams(loop: loop, branch: mjpeg)
    }

    func handle(_ request: WebRequest) {
        guard isAuthorized(request) else {
            request.setHeader("WWW-Authenticate", #"Basic realm="gstcam", charset="UTF-8""#)
            return request.respond(401, json: Self.errorJSON("This camera needs a token, or a user and password."))
        }
        switch (request.method, request.path) {
        case ("GET", "/"), ("GET", "/index.html"):
            request.respond(200, type: "text/html; charset=utf-8", body: Array(CameraPage.html.utf8))
        case ("GET", "/api/status"):
            request.respond(200, json: statusJSON())
        case ("GET", "/snapshot.jpg"):
            answerLater(request) { [cameraOperator] in
                do {
                    return (200, "image/jpeg", try await cameraOperator.session.snapshotJPEG())
                } catch {
                    return (503, "application/json", Array(Self.errorJSON("\(error)").utf8))
                }
            }
        case ("POST", "/api/photo"):
            answerLater(request) { [cameraOperator] in
                let outcome = await cameraOperator.perform(.capture())
                return (outcome.isError ? 500 : 200, "application/json", Array(Self.outcomeJSON(outcome).utf8))
            }
        case ("POST", "/api/zoom"):
            guard let factor = request.query["factor"].flatMap(Double.init), factor.isFinite, factor >= 1 else {
                return request.respond(400, json: Self.errorJSON("give the zoom as ?factor=NUMBER (1 or more)"))
            }
            answerLater(request) { [cameraOperator] in
                let outcome = await cameraOperator.perform(.zoom(factor: factor))
                return (outcome.isError ? 500 : 200, "application/json", Array(Self.outcomeJSON(outcome).utf8))
            }
        case ("POST", "/api/torch"):
            guard let on = request.query["on"].flatMap({ ["1": true, "true": true, "on": true, "0": false, "false": false, "off": false][$0] }) else {
                return request.respond(400, json: Self.errorJSON("give the torch as ?on=1 or ?on=0"))
            }
            perform(.torch(on: on), request)
        case ("POST", "/api/focus"):
            guard let x = request.query["x"].flatMap(Double.init), let y = request.query["y"].flatMap(Double.init),
                  (0...1).contains(x), (0...1).contains(y) else {
                return request.respond(400, json: Self.errorJSON("give the point as ?x=X&y=Y, each from 0 to 1 (of the picture)"))
            }
            perform(.focus(at: NormalizedPoint(x: x, y: y)), request)
        case ("POST", "/api/camera/next"):
            perform(.nextCamera, request)
        case ("GET", "/api/gallery"):
            do {
                let photos = try cameraOperator.library.photos().map { photo in
                    GalleryEntry(name: photo.name, url: "/photos/" + photo.name, width: photo.size?.width,
                                 height: photo.size?.height, date: photo.dateText, bytes: photo.byteCount)
                }
                request.respond(200, json: JSONOutput.line(photos))
            } catch {
                request.respond(500, json: Self.errorJSON("\(error)"))
            }
        case ("DELETE", let path) where path.hasPrefix("/photos/"):
            deletePhoto(named: String(path.dropFirst("/photos/".count)), request)
        case ("GET", "/stream.mjpg"):
            guard liveViewers < maxViewers else { return refuseViewer(request) }
            streams.add(request)
        case ("GET", let path) where path.hasPrefix("/photos/"):
            servePhoto(named: String(path.dropFirst("/photos/".count)), request)
        case (_, "/"), (_, "/api/status"), (_, "/snapshot.jpg"), (_, "/api/photo"), (_, "/api/zoom"), (_, "/stream.mjpg"),
             (_, "/api/torch"), (_, "/api/focus"), (_, "/api/camera/next"), (_, "/api/gallery"):
            request.respond(405, json: Self.errorJSON("\(request.method) is not allowed on \(request.path)"))
        default:
            request.respond(404, json: Self.errorJSON("no such page: \(request.path)"))
        }
    }

    /// Live views now: Motion-JPEG streams and WebRTC viewers.
    private var liveViewers: Int { streams.count + webRTCViewers.withLock { $0.count } }

    private func refuseViewer(_ request: WebRequest) {
        request.setHeader("Retry-After", "10")
        request.respond(503, json: Self.errorJSON("This camera already has \(maxViewers) viewers; try again later."))
    }

    func endStreams() {
        streams.endAll()
        for viewer in webRTCViewers.withLock({ Array($0.values) }) { viewer.close() }
    }

    /// A browser opened the WebRTC signalling socket: a viewer of its own, fed from the shared H.264 branch.
    func webSocket(_ connection: OpaquePointer, request: WebRequest) {
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
        do {
            let viewer = try WebRTCViewer(loop: loop, connection: connection, feed: h264,
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
    private func perform(_ action: CameraAction, _ request: WebRequest) {
        answerLater(request) { [cameraOperator] in
            let outcome = await cameraOperator.perform(action)
            return (outcome.isError ? 500 : 200, "application/json", Array(Self.outcomeJSON(outcome).utf8))
        }
    }

    /// A plain photo file name in the gallery folder (letters, digits, `-_.`, no leading dot, a photo's
    /// extension), as its path there; nil for anything else, so nothing outside the folder is reachable.
    private func galleryPath(_ name: String) -> (path: String, name: String, format: PhotoFormat)? {
        let decoded = name.removingPercentEncoding ?? name
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        guard !decoded.isEmpty, !decoded.hasPrefix("."), decoded.allSatisfy(allowed.contains),
              let format = PhotoFormat(path: decoded) else { return nil }
        return (cameraOperator.library.directory + "/" + decoded, decoded, format)
    }

    private func deletePhoto(named name: String, _ request: WebRequest) {
        guard let (path, decoded, _) = galleryPath(name), FileManager.default.fileExists(atPath: path) else {
            return request.respond(404, json: Self.errorJSON("no such photo"))
        }
        do {
            try FileManager.default.removeItem(atPath: path)
            request.respond(200, json: JSONOutput.line(ActionAnswer(CameraActionOutcome(message: "Deleted \(decoded)"))))
        } catch {
            request.respond(500, json: Self.errorJSON("\(decoded) could not be deleted: \(error.localizedDescription)"))
        }
    }

    /// A photo of the gallery folder, by its plain file name: nothing outside the folder is reachable.
    private func servePhoto(named name: String, _ request: WebRequest) {
        guard let (path, decoded, format) = galleryPath(name) else {
            return request.respond(404, json: Self.errorJSON("no such photo"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return request.respond(404, json: Self.errorJSON("no such photo: \(decoded)"))
        }
        if request.query["download"] != nil {
            request.setHeader("Content-Disposition", "attachment; filename=\"\(decoded)\"")
        }
        request.respond(200, type: format == .png ? "image/png" : "image/jpeg", body: Array(data))
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

    private func statusJSON() -> String {
        let session = cameraOperator.session
        cameraOperator.measureFrameRate()
        let status = cameraOperator.status()
        var error: String?
        // gstcam serve keeps serving and starts the camera again when it is back (the page's banner says so).
        if case .failed(let failure) = session.state { error = failure.description + " (Waiting for the camera to come back.)" }
        return JSONOutput.line(StatusAnswer(
            camera: status.camera, device: status.device, state: session.state.description, error: error,
            width: status.width, height: status.height, fps: (status.framesPerSecond * 10).rounded() / 10, zoom: status.zoom,
            torch: status.torch, focus: status.focus, frames: status.frames, viewers: streams.count, rtsp: rtspURL))
    }

    static func outcomeJSON(_ outcome: CameraActionOutcome) -> String { JSONOutput.line(ActionAnswer(outcome)) }

    static func errorJSON(_ message: String) -> String { JSONOutput.line(ErrorAnswer(error: message)) }
}
