import CameraErrors
import GStreamer
import LinuxSystem
import MediaFiles
import PipelineFiles
/// What `CameraSession.startRecording` records, and where.
public struct RecordingSettings: Sendable, Equatable {
    /// The file to write. Its extension (.mp4, .webm, .mkv) chooses the codec when `codec` is nil and must agree
    /// with it otherwise; a name without one gets the container's (`RecordingTarget`). With `segmentDuration`,
    /// the segments are named from it: `clip.mp4` gives `clip_00001.mp4`, `clip_00002.mp4`…
    public var path: String
    /// nil: the one `path`'s extension names, else H.264 when an H.264 encoder is installed, else VP8 (see
    /// `VideoEncoderChoice`).
    public var codec: VideoCodec?
    /// Target bitrate in kbit/s; nil picks one from the frame size (`defaultBitrate`).
    public var bitrate: Int?
    /// Replace `path` if it exists; otherwise an existing file is an error and nothing is touched.
    public var overwrite: Bool
    /// Consecutive files of this length each (`--segment`), cut at keyframes; nil writes one file.
    public var segmentDuration: Duration?
    /// Stop by itself after this much video (counted in the camera's frame timestamps, so the file holds
    /// exactly the frames of that time); nil records until `stop()`.
    public var duration: Duration?
    /// Pre-roll (`--pre`): encoded video of at least this long is kept in memory, and `startRecording` only arms
    /// the recording; `Recording.begin()` then starts the file that much earlier (from the keyframe before).
    public var preRoll: Duration?
    /// Sound recorded with the video (`--audio`): AAC in MP4, Opus in WebM. nil: video only.
    public var audio: RecordingAudio?

    public init(path: String, codec: VideoCodec? = nil, bitrate: Int? = nil, overwrite: Bool = false,
                segmentDuration: Duration? = nil, duration: Duration? = nil, preRoll: Duration? = nil,
                audio: RecordingAudio? = nil) {
        self.preRoll = preRoll
        self.audio = audio
        self.path = path
        self.codec = codec
        self.bitrate = bitrate
        self.overwrite = overwrite
        self.segmentDuration = segmentDuration
        self.duration = duration
    }

    /// About 0.1 bit per pixel per frame at 30 fps (640x480: 1 Mbit/s, 1280x720: 2.8 Mbit/s), at least 300 kbit/s.
    static func defaultBitrate(width: Int, height: Int) -> Int {
        max(300, width * height * 3 / 1000)
    }

    /// How often a keyframe comes, in frames: one a second, so a cut-off file loses at most a second and a
    /// segment or pre-roll starts within a second of where it was asked to.
    static func keyframeInterval(framesPerSecond: Double) -> Int {
        max(1, Int(framesPerSecond.rounded()))
    }
}

/// Where a recording's sound comes from.
public enum RecordingAudio: String, Sendable, Equatable {
    /// The desktop's default input (pipelines/record-audio-source.branch: autoaudiosrc).
    case device
    /// GStreamer's test tone (pipelines/record-audio-test-source.branch), for tests and machines without sound.
    case testTone
    /// The default input when it gives sound (checked first, apart from the camera's pipeline), else none:
    /// the recording's `soundProblem` says why (`--audio auto`).
    case deviceIfAvailable

    var sourceFile: String { self == .testTone ? "record-audio-test-source.branch" : "record-audio-source.branch" }
    /// For `device` and `deviceIfAvailable` when the camera's pipeline makes its own sound (a tee named `sound`).
    static let pipelineSoundFile = "record-audio-tee-source.branch"
}
