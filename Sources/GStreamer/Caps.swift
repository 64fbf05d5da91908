import CGStreamer

/// An owned GstCaps, read as video info.
///
/// `@unchecked Sendable`: caps are immutable once shared (GStreamer's copy-on-write refcounting), and
/// this wrapper only reads them.
public final class Caps: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstCaps>

    public init(owning pointer: UnsafeMutablePointer<GstCaps>) { self.pointer = pointer }
    deinit { gst_mini_object_unref(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstMiniObject.self)) }

    /// Width, height, format and row stride of raw video caps; nil for anything else.
    public var videoInfo: VideoInfo? { VideoInfo(caps: pointer) }
}

public struct VideoInfo: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public let format: VideoFormat
    public let bytesPerRow: Int

    /// Reads raw video caps (borrowed: a sample's or a pad's); nil for anything else.
    public init?(caps: UnsafeMutablePointer<GstCaps>) {
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0 else { return nil }
        let format = gst_video_format_to_string(info.finfo.pointee.format).map { String(cString: $0) } ?? "unknown"
        self.init(width: Int(info.width), height: Int(info.height), format: VideoFormat(rawValue: format),
                  bytesPerRow: Int(info.stride.0))
    }

    init(width: Int, height: Int, format: VideoFormat, bytesPerRow: Int) {
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = bytesPerRow
    }
}
