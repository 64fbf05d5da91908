import MediaFiles
import LinuxSystem

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

extension VideoCodec {
    /// The codec a recording named `path` is made in: `asked`, which must agree with the name's extension
    /// (H.264 into `clip.webm` is a problem, not a file renamed to clip.mp4); else the one the extension asks
    /// for (.mp4 H.264, .webm VP8, .mkv Motion-JPEG); else nil, the default order (H.264, else VP8).
    public static func forRecording(named path: String, asked: VideoCodec?) throws(VideoNameProblem) -> VideoCodec? {
        guard let container = try VideoFileName.container(of: path) else { return asked }
        guard let asked else { return preferred(in: container) }
        guard asked.container == container else {
            let stem = FilePath.splitExtension(FilePath.lastComponent(of: path)).stem
            throw VideoNameProblem("the name asks for \(container.displayName), but \(asked.displayName) is recorded into "
                + "\(asked.container.displayName): name it \(stem).\(asked.container.fileExtension), or leave the codec to the name")
        }
        return asked
    }

    /// VP8 for WebM: it encodes several times faster than VP9 in software, which a live camera needs.
    private static func preferred(in container: VideoContainer) -> VideoCodec {
        switch container {
        case .mp4: .h264
        case .webm: .vp8
        case .mkv: .mjpeg
        }
    }
}
