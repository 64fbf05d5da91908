/// `gstcam serve --json`, once both servers listen: where to point players and browsers (absent: not served).
public struct ServingRecord: Encodable, Equatable {
    public var event = "serving"
    /// The first camera's RTSP URL.
    public var rtsp: String?
    public var http: String?
    /// Every camera served (several with `--camera A --camera B`), each at its own RTSP path.
    public var cameras: [ServedCameraRecord]?

    public init(rtsp: String?, http: String?, cameras: [ServedCameraRecord]? = nil) {
        self.rtsp = rtsp
        self.http = http
        self.cameras = cameras
    }
}

/// One camera `gstcam serve` serves: its name (RTSP path, the page's `?camera=NAME`), its device and its URL.
public struct ServedCameraRecord: Encodable, Equatable {
    public var name: String
    public var device: String?
    public var rtsp: String?

    public init(name: String, device: String?, rtsp: String?) {
        self.name = name
        self.device = device
        self.rtsp = rtsp
    }
}
