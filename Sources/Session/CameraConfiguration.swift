import CameraErrors
import Controls
import Cameras
import PipelineFiles
import V4L2
import LinuxSystem
/// What a session opens: which pipeline file, which device, and at which size and rate.
///
/// These values are taken as they are. To open a camera in a mode it really has, start from
/// `choosingMode(_:keepPipeline:)`, which reads the camera's modes and fills in size, rate and pipeline file.
public struct CameraConfiguration: Sendable, Equatable {
    /// A pipeline file path, or a name in the pipelines folder ("default", "mjpeg", "bayer", "test-pattern").
    public var pipeline: String
    /// The V4L2 device path for `${device}`; nil picks the first camera found.
    public var device: String?
    public var width: Int
    public var height: Int
    /// Frames per second asked of the source, exactly (12.5 is 25/2).
    public var framerate: FrameRate
    /// The camera's pixel format in the chosen mode (`choosingMode`), so the camera streams the mode it was chosen
    /// in: the pipeline file's `${format}` (`PixelFormat.rawCapsFormat`), added to `source-caps` by the session
    /// when the file names no format. nil leaves the format to v4l2src (`${format}` is then every raw format).
    public var pixelFormat: PixelFormat?
    /// A GStreamer video sink factory (e.g. "autovideosink") to show the preview in a window as well.
    public var displaySink: String?
    /// JPEG quality of photos, 1…100.
    public var jpegQuality: Int
    /// The date and time drawn in each photo's bottom right corner, as a strftime format ("%Y-%m-%d %H:%M:%S"),
    /// in local time when the frame is taken (pipelines/photo-stamp.branch); nil draws nothing. A stamped photo
    /// is encoded from decoded pixels, never the camera's own JPEG.
    public var photoStamp: String? = nil
    /// How the picture is turned for everything after the zoom stage (`FrameOrientation`); `.normal` adds nothing.
    public var orientation = FrameOrientation.normal
    /// How long `start()` waits for the first frame.
    public var startTimeout: Duration
    /// Controls set on the camera, in order, as the session starts.
    public var controls: [ControlSetting]
    /// How long a running camera may send no frame before the session says so (`CameraEvent.framesStalled`).
    public var stallWarning: Duration = .seconds(2)
    /// How long a running camera may send no frame before the session fails with `CameraError.stalled`;
    /// nil only warns.
    public var stallTimeout: Duration? = .seconds(5)
    /// Whether `frames()` delivers preview frames. When true, the preview branch is linked when `frames()` is
    /// first read. A session only for photos or recording sets false: it then never links one, and `frames()` ends at once;
    /// `frameNumbers()` and `frameCount` still count every frame.
    public var previewFrames = true

    public init(pipeline: String = "default", device: String? = nil, width: Int = 640, height: Int = 480,
                framerate: FrameRate = 30, displaySink: String? = nil, jpegQuality: Int = 85,
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

/// A mode chosen for a camera (docs/modes.md) and the configuration that opens the camera in it.
public struct ModeChoice: Sendable, Equatable {
    public var configuration: CameraConfiguration
    /// The camera's mode; nil when the pipeline opens no camera (the test pattern), whose size and rate are
    /// the request's, else the configuration's.
    public var mode: CameraMode?
    public var request: ModeRequest
    /// The camera as probed to choose the mode (nil without one): a session made with it
    /// (`CameraSession(configuration:camera:)`) need not open and probe the camera again.
    public var camera: Camera?
    /// Whether every value the request gave is the mode's.
    public var matchesRequest: Bool { mode.map(request.isMet) ?? true }

    /// The line gstcam prints: "Mode: 1280x720 at 12.5 fps, raw (YUYV), as asked".
    public var summary: String {
        guard let mode else {
            return "Mode: \(configuration.width)x\(configuration.height) at \(configuration.framerate) fps (\(configuration.pipeline))"
        }
        let camera = configuration.device ?? "the camera"
        if !request.asksForSomething {
            switch request.purpose {
            case .photo: return "Mode: \(mode): the largest size \(camera) offers, for a photo"
            case .preview: return "Mode: \(mode): \(camera)'s best for a preview (up to 1920x1080, 15 to 30 fps preferred)"
            }
        }
        if matchesRequest { return "Mode: \(mode), as asked" }
        return "Mode: \(mode): \(camera) has no \(request), this is the nearest it has"
    }
}

extension CameraConfiguration {
    /// This configuration with the camera's mode for `request` (the mode rule: `ModeChooser`): the device
    /// resolved, width, height and rate set to the mode's, and the pipeline file for the mode's kind
    /// (`default`, `mjpeg` or `bayer`) unless `keepPipeline`, which limits the choice to modes of the kind the
    /// pipeline file asks for. Opens the camera to read its modes (not the pipeline). A pipeline that opens no
    /// camera (the test pattern) gets the request's size and rate, else this configuration's. `camera`: the camera
    /// `device` names, when the caller has probed it already (then it is not opened again).
    public func choosingMode(_ request: ModeRequest, keepPipeline: Bool, camera probed: Camera? = nil) throws -> ModeChoice {
        let file = try PipelineFile.load(pipeline)
        guard file.placeholders.contains("device") else {
            var fixed = self
            fixed.width = request.width ?? width
            fixed.height = request.height ?? height
            fixed.framerate = request.frameRate ?? framerate
            return ModeChoice(configuration: fixed, mode: nil, request: request)
        }
        let camera = try probed.map(CameraSession.usable) ?? CameraSession.usableCamera(device)
        let kind = keepPipeline ? SourceKind(pipelineTemplate: file.template) : nil
        let modes = camera.modes.filter { kind == nil || $0.kind == kind }
        guard let mode = ModeChooser.choose(request, from: modes) else {
            throw CameraError.negotiationFailed(device: camera.path, detail: kind.map {
                "it offers no \($0.formatName) format for \(file.path)"
            } ?? "it offers no format gstcam can take (\(Self.skipped(camera.formats)))")
        }
        var chosen = self
        chosen.device = camera.path
        chosen.width = mode.width
        chosen.height = mode.height
        chosen.framerate = mode.frameRate
        chosen.pixelFormat = mode.pixelFormat
        chosen.startTimeout = startTimeout(scaledFor: mode)
        if !keepPipeline { chosen.pipeline = mode.kind.pipelineName }
        return ModeChoice(configuration: chosen, mode: mode, request: request, camera: camera)
    }

    /// Throws, before GStreamer is asked, when `camera` has no mode of the kind `file` takes at this size and
    /// rate: the error names the nearest mode it has, instead of GStreamer's "not-negotiated". Files whose source
    /// caps do not use `${framerate}` ask something else of the camera and are not checked.
    func checkOffered(by camera: Camera, file: PipelineFile) throws(CameraError) {
        guard file.template.containsText("${framerate}") else { return }
        let kind = SourceKind(pipelineTemplate: file.template)
        guard !camera.offers(kind, width: width, height: height, frameRate: framerate) else { return }
        let asked = ModeRequest(width: width, height: height, frameRate: framerate, purpose: .preview)
        let nearest = ModeChooser.choose(asked, from: camera.modes.filter { $0.kind == kind })
        throw CameraError.negotiationFailed(device: camera.path, detail: nearest.map {
            "it has no \(kind.formatName) mode \(asked); the nearest it has is \($0)"
        } ?? "it offers no \(kind.formatName) format for \(file.path)")
    }

    /// "HSV3: GStreamer's v4l2src has no caps for HSV3; …" for an error listing why each format was skipped.
    private static func skipped(_ formats: [CameraFormat]) -> String {
        guard !formats.isEmpty else { return "it lists no formats" }
        return formats.compactMap { format in format.support.skipReason.map { "\(format.pixelFormat): \($0)" } }
            .joined(separator: "; ")
    }
}
