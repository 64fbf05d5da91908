import CameraErrors
import GStreamer
import LinuxSystem
import MediaFiles
import PipelineFiles
/// A finished recording, as `Recording.stop()` reports it.
public struct RecordedVideo: Sendable, Equatable {
    /// The file (the first one, with segments).
    public let path: String
    /// Every file written, in order (one unless recording in segments).
    public let files: [String]
    /// From the first frame to the end of the last one.
    public let duration: Duration
    /// Frames written.
    public let frames: Int
    /// Frames the encoder could not keep up with (dropped before encoding, never from the preview).
    public let droppedFrames: Int
    public let width: Int
    public let height: Int
    public let codec: VideoCodec
    /// The encoder element that made it (e.g. "openh264enc").
    public let encoder: String
    /// The files' total size.
    public let bytes: Int64
}
