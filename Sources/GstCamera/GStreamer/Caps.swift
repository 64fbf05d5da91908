import CGStreamer

/// An owned GstCaps, read as video info.
///
/// `@unchecked Sendable`: caps are immutable once shared (GStreamer's copy-on-write refcounting), and
/// this wrapper only reads them.
final class Caps: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstCaps>

    init(owning pointer: UnsafeMutablePointer<GstCaps>) { self.pointer = pointer }
    deinit { gst_mini_object_unref(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstMiniObject.self)) }

    var description: String { takeGString(gst_caps_to_string(pointer)) ?? "" }

    /// Width, height, format and row stride of raw video caps; nil for anything else.
    var videoInfo: VideoInfo? {
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, pointer) != 0 else { return nil }
        let format = gst_video_format_to_string(info.finfo.pointee.format).map { String(cString: $0) } ?? "unknown"
        return VideoInfo(width: Int(info.width), height: Int(info.height), format: VideoFormat(rawValue: format),
                         bytesPerRow: Int(info.stride.0))
    }
}

struct VideoInfo: Equatable {
    let width: Int
    let height: Int
    let format: VideoFormat
    let bytesPerRow: Int
}
