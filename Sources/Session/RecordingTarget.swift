import CameraErrors
import LinuxSystem
import MediaFiles

/// Where a recording goes and in what, worked out from its settings before any camera work: `gstcam record
/// -o NAME` checks it before opening the camera, and `startRecording` before building its branch.
public struct RecordingTarget: Sendable {
    /// The encoder, and so the codec and the container.
    public let choice: VideoEncoderChoice
    /// The file (the name given, with the container's extension when it had none); with segments, the first
    /// segment's.
    public let path: String
    /// splitmuxsink's `location` with segments (`clip_%05d.mp4`), else nil.
    let segmentPattern: String?

    /// Throws `outputNotWritable` when the name leads to a directory, device, pipe or socket, has an extension
    /// gstcam does not record into or one that contradicts `settings.codec`, or its folder is missing or not
    /// writable; `outputExists` when the file exists and `overwrite` is not set; `noVideoEncoder` when nothing
    /// installed encodes the codec.
    public init(_ settings: RecordingSettings) throws {
        try VideoFileName.checkNamesAFile(settings.path)
        let codec: VideoCodec?
        do {
            codec = try VideoCodec.forRecording(named: settings.path, asked: settings.codec)
        } catch {
            throw CameraError.outputNotWritable(path: settings.path, reason: error.reason)
        }
        choice = try VideoEncoderChoice.choose(codec)
        let file = CameraSession.videoPath(settings.path, container: choice.codec.container)
        segmentPattern = settings.segmentDuration.map { _ in VideoSegmentNames.pattern(for: file) }
        path = segmentPattern.map { VideoSegmentNames.name($0, 1) } ?? file
        try CameraSession.checkVideoOutput(path, overwrite: settings.overwrite)
    }

    /// What the encoder writes to: the pattern with segments, else the file.
    var location: String { segmentPattern ?? path }
}
