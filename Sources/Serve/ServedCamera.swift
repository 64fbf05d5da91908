import Screen

/// One camera `gstcam serve` serves: its name — the RTSP path (rtsp://HOST:PORT/`name`) and the web page's
/// `?camera=NAME` — and the operator of its session. Several cameras are served side by side, each with its
/// own session and encodes.
public struct ServedCamera: Sendable {
    public let name: String
    public let cameraOperator: CameraOperator

    public init(name: String, operator cameraOperator: CameraOperator) {
        self.name = name
        self.cameraOperator = cameraOperator
    }

    /// The default name of the camera at `device` when several are served: the device file's name (`video2`
    /// for /dev/video2), or `camera` when there is no device path.
    public static func defaultName(device: String?) -> String {
        guard let device, let last = device.split(separator: "/").last, ServeConfiguration.isPlainName(String(last)) else {
            return "camera"
        }
        return String(last)
    }
}
