/// Placeholder replaced by the libsoup server in the next step.
final class WebServer: Sendable {
    let address: String
    let port: Int
    init(loop: GLibLoop, address: String, port: Int, credentials: ServeCredentials?, cameraOperator: CameraOperator,
         mjpeg: NetworkBranch) throws {
        throw CameraError.serveFailed(what: "The web server", address: address, port: port, detail: "not built yet")
    }
    func stop() {}
}
