import CGStreamer

/// A raw video format by GStreamer's name for it ("RGB", "YUY2", "NV12", …).
public struct VideoFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Packed 8-bit red, green, blue: what preview frames carry.
    public static let rgb = VideoFormat(rawValue: "RGB")
    public static let yuy2 = VideoFormat(rawValue: "YUY2")
    public static let nv12 = VideoFormat(rawValue: "NV12")

    public var description: String { rawValue }

    /// Every raw format GStreamer has, as a caps list ("{ I420, YV12, … }"): what a caps field naming no format
    /// allows, for a `format=` that must name something.
    public static var anyRawCapsList: String {
        // The list is made by deserialising GStreamer's own string of them, which needs gst_init done.
        GStreamerRuntime.ensureInitialized()
        var count: guint = 0
        guard let formats = gst_video_formats_raw(&count) else { return "{ }" }
        let names = UnsafeBufferPointer(start: formats, count: Int(count)).compactMap { format in
            gst_video_format_to_string(format).map { String(cString: $0) }
        }
        return "{ " + names.joined(separator: ", ") + " }"
    }
}
