/// A raw video format by GStreamer's name for it ("RGB", "YUY2", "NV12", …).
public struct VideoFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Packed 8-bit red, green, blue: what preview frames carry.
    public static let rgb = VideoFormat(rawValue: "RGB")
    public static let yuy2 = VideoFormat(rawValue: "YUY2")
    public static let nv12 = VideoFormat(rawValue: "NV12")

    public var description: String { rawValue }
}
