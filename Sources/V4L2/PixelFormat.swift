/// A V4L2 pixel format: the fourcc the driver reports (`V4L2_PIX_FMT_*`), with Swift names for the common ones.
public struct PixelFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The format whose fourcc is these four characters (e.g. "YUYV"); nil unless exactly four ASCII characters.
    public init?(fourcc: String) {
        let bytes = Array(fourcc.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 128 }) else { return nil }
        rawValue = bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The four characters, trailing spaces kept (e.g. "Y16 ").
    public var fourcc: String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (8 * $0)) }, as: UTF8.self)
    }

    public static let yuyv = PixelFormat(fourcc: "YUYV")!
    public static let uyvy = PixelFormat(fourcc: "UYVY")!
    public static let nv12 = PixelFormat(fourcc: "NV12")!
    public static let nv21 = PixelFormat(fourcc: "NV21")!
    public static let yuv420 = PixelFormat(fourcc: "YU12")!
    public static let mjpeg = PixelFormat(fourcc: "MJPG")!
    public static let jpeg = PixelFormat(fourcc: "JPEG")!
    public static let h264 = PixelFormat(fourcc: "H264")!
    public static let rgb24 = PixelFormat(fourcc: "RGB3")!
    public static let bgr24 = PixelFormat(fourcc: "BGR3")!
    /// 8-bit greyscale: what infrared cameras typically deliver.
    public static let grey = PixelFormat(fourcc: "GREY")!
    public static let y10 = PixelFormat(fourcc: "Y10 ")!
    public static let y12 = PixelFormat(fourcc: "Y12 ")!
    public static let y16 = PixelFormat(fourcc: "Y16 ")!
    /// 8-bit depth/IR format some RealSense-style cameras use.
    public static let z16 = PixelFormat(fourcc: "Z16 ")!

    /// Greyscale-only formats: a camera that offers nothing else is most likely an infrared camera.
    public var isGreyscale: Bool {
        [.grey, .y10, .y12, .y16, .z16].contains(self)
    }

    /// The fourcc without padding, e.g. "YUYV", "Y16"; big-endian variants (bit 31 set) as v4l2-ctl shows them,
    /// e.g. "Y16-BE".
    public var description: String {
        if rawValue & 1 << 31 != 0 { return PixelFormat(rawValue: rawValue & ~(1 << 31)).description + "-BE" }
        let trimmed = fourcc.reversed().drop { $0 == " " || $0 == "\0" }
        return String(trimmed.reversed())
    }
}

extension PixelFormat: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let format = PixelFormat(fourcc: text + String(repeating: " ", count: max(0, 4 - text.utf8.count))) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a fourcc: \(text)"))
        }
        self = format
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
