import Session

/// What `gstcam record --json` prints, one line each: "started", "progress" once a second, then "saved"
/// (docs/recording.md).
public struct RecordingRecord: Encodable, Equatable {
    public var event: String
    public var path: String?
    /// Every file of a segmented recording ("saved").
    public var files: [String]?
    public var codec: String?
    public var encoder: String?
    public var width: Int?
    public var height: Int?
    /// Video time written (pauses excluded).
    public var seconds: Double?
    public var frames: Int?
    /// Frames per second over the last second ("progress").
    public var fps: Int?
    public var dropped: Int?
    public var bytes: Int64?
    public var paused: Bool?

    public init(event: String, path: String? = nil, files: [String]? = nil, codec: String? = nil, encoder: String? = nil,
                width: Int? = nil, height: Int? = nil, seconds: Double? = nil, frames: Int? = nil, fps: Int? = nil,
                dropped: Int? = nil, bytes: Int64? = nil, paused: Bool? = nil) {
        (self.event, self.path, self.files, self.codec, self.encoder) = (event, path, files, codec, encoder)
        (self.width, self.height, self.seconds, self.frames, self.fps) = (width, height, seconds, frames, fps)
        (self.dropped, self.bytes, self.paused) = (dropped, bytes, paused)
    }

    /// Armed with `--pre`: waiting for SIGUSR2.
    public static func waiting(_ recording: Recording) -> RecordingRecord {
        RecordingRecord(event: "waiting", path: recording.path)
    }

    public static func started(_ recording: Recording) -> RecordingRecord {
        RecordingRecord(event: "started", path: recording.path, codec: recording.codec.rawValue, encoder: recording.encoder,
                        width: recording.width, height: recording.height)
    }

    public static func progress(_ progress: RecordingProgress, fps: Int) -> RecordingRecord {
        RecordingRecord(event: "progress", seconds: milliseconds(progress.duration), frames: progress.frames, fps: fps,
                        dropped: progress.droppedFrames, bytes: progress.bytes, paused: progress.paused)
    }

    public static func saved(_ video: RecordedVideo) -> RecordingRecord {
        RecordingRecord(event: "saved", path: video.path, files: video.files, codec: video.codec.rawValue, encoder: video.encoder,
                        width: video.width, height: video.height, seconds: milliseconds(video.duration), frames: video.frames,
                        dropped: video.droppedFrames, bytes: video.bytes)
    }

    /// Seconds, to the millisecond.
    private static func milliseconds(_ duration: Duration) -> Double {
        (Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds / 1_000_000_000_000_000)) / 1000
    }
}
