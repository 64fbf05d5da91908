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
    /// How long a running camera may send no frame before the session says so (`CameraEvent.framesStalled`).
    public var stallWarning: Duration = .seconds(2)
    /// How long a running camera may send no frame before the session fails with `CameraError.stalled`;
    /// nil only warns.
    public var stallTimeout: Duration? = .seconds(5)

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

extension CameraConfiguration {
    /// This configuration with the largest frame size the camera offers in the kind of format the pipeline file
    /// asks of it (Motion-JPEG for `mjpeg`, raw otherwise), at the configured rate if that size has it, else
    /// the nearest slower one. Opens the camera to ask (VIDIOC_ENUM_FRAMESIZES), not the pipeline.
    public func withLargestFrameSize() throws -> CameraConfiguration {
        let file = try PipelineFile.load(pipeline)
        guard file.placeholders.contains("device") else {
            throw CameraError.negotiationFailed(device: nil, detail: "\(file.path) opens no camera, so there is no largest size to take")
        }
        let compressed = file.template.contains("image/jpeg")
        let camera = try CameraSession.usableCamera(device)
        guard let mode = SourceMode.largest(in: camera.formats, compressed: compressed, framerate: framerate) else {
            throw CameraError.negotiationFailed(device: camera.path,
                detail: "it offers no \(compressed ? "Motion-JPEG" : "raw") format for \(file.path)")
        }
        var largest = self
        largest.device = camera.path
        largest.width = mode.width
        largest.height = mode.height
        largest.framerate = mode.framerate
        return largest
    }
}
