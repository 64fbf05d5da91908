import Screen

/// One camera as the web server serves it: its name (`?camera=NAME`), its operator, its shared encodes and the
/// Motion-JPEG live views of it.
final class WebCamera: Sendable {
    let name: String
    let cameraOperator: CameraOperator
    let mjpeg: BranchFeed
    let h264: BranchFeed
    /// rtsp://HOST:PORT/NAME when RTSP is served too.
    let rtspURL: String?
    let streams: MJPEGStreams

    init(loop: GLibLoop, name: String, cameraOperator: CameraOperator, mjpeg: BranchFeed, h264: BranchFeed, rtspURL: String?) {
        self.name = name
        self.cameraOperator = cameraOperator
        self.mjpeg = mjpeg
        self.h264 = h264
        self.rtspURL = rtspURL
        streams = MJPEGStreams(loop: loop, branch: mjpeg)
    }
}
