import MediaFiles

/// The video codecs a recording can be made in, and the container each one is written into.
public enum VideoCodec: String, Sendable, CaseIterable, Equatable {
    case h264
    case vp8
    case vp9
    /// The camera's own Motion-JPEG frames, not re-encoded (only from a camera mode that delivers MJPEG).
    case mjpeg

    /// The container: H.264 into MP4, which every player and phone opens; VP8/VP9 into WebM.
    public var container: VideoContainer {
        switch self {
        case .h264: .mp4
        case .vp8, .vp9: .webm
        case .mjpeg: .mkv
        }
    }

    /// For people: "H.264".
    public var displayName: String {
        switch self {
        case .h264: "H.264"
        case .vp8: "VP8"
        case .vp9: "VP9"
        case .mjpeg: "Motion-JPEG"
        }
    }
}
