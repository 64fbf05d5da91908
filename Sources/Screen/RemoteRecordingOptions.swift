import Session

/// What a `record_start` request may choose besides the file (`gstcam record` served by a running screen):
/// the codec, the bitrate, a length after which the recording ends by itself, and whether `path` may be replaced.
public struct RemoteRecordingOptions: Sendable, Equatable {
    public var codec: VideoCodec?
    /// kbit/s.
    public var bitrate: Int?
    public var duration: Duration?
    public var overwrite: Bool
    /// Consecutive files of this length (`"segment"`, `gstcam record --segment`).
    public var segment: Duration?
    /// Sound with the video (`"audio"`: "on", "auto" or "test-tone").
    public var audio: RecordingAudio?
    /// Pre-roll (`"pre"`, `gstcam record --pre`): that much encoded video is kept, and `record_begin` starts the file.
    public var preRoll: Duration?

    public init(codec: VideoCodec? = nil, bitrate: Int? = nil, duration: Duration? = nil, overwrite: Bool = false,
                segment: Duration? = nil, audio: RecordingAudio? = nil, preRoll: Duration? = nil) {
        self.preRoll = preRoll
        self.codec = codec
        self.bitrate = bitrate
        self.duration = duration
        self.overwrite = overwrite
        self.segment = segment
        self.audio = audio
    }
}
