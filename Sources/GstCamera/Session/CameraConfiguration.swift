/// What a session opens: which pipeline file, which device, and at which size and rate.
public struct CameraConfiguration: Sendable, Equatable {
    /// A pipeline file path, or a name in the pipelines folder ("default", "mjpeg", "test-pattern").
    public var pipeline: String
    /// The V4L2 device path for `${device}`; nil picks the first camera found.
    public var device: String?
    public var width: Int
    public var height: Int
    /// Frames per second asked of the source.
    public var framerate: Int
    /// A GStreamer video sink factory (e.g. "autovideosink") to show the preview in a window as well.
    public var displaySink: String?
    /// JPEG quality of photos, 1…100.
    public var jpegQuality: Int
    /// How long `start()` waits for the first frame.
    public var startTimeout: Duration
    /// Controls set on the camera, in order, as the session starts.
    public var controls: [ControlSetting]

    public init(pipeline: String = "default", device: String? = nil, width: Int = 640, height: Int = 480,
                framerate: Int = 30, displaySink: String? = nil, jpegQuality: Int = 85,
                startTimeout: Duration = .seconds(10), controls: [ControlSetting] = []) {
        self.pipeline = pipeline
        self.device = device
        self.width = width
        self.height = height
        self.framerate = framerate
        self.displaySink = displaySink
        self.jpegQuality = jpegQuality
        self.startTimeout = startTimeout
        self.controls = controls
    }
}
