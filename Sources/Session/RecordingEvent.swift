import CameraErrors
import GStreamer
import LinuxSystem
import MediaFiles
import PipelineFiles
/// What a recording tells its observers (`Recording.events()`), in order.
public enum RecordingEvent: Sendable, Equatable {
    /// The first frame reached the file.
    case started(path: String)
    /// Finished normally (`stop()`); the file is complete.
    case stopped(RecordedVideo)
    /// The recording ended by itself (a full disk, a write error, the camera lost); the file plays up to
    /// `video`'s frames.
    case failed(CameraError, RecordedVideo)
}
