import V4L2
import LinuxSystem
/// How frames of a pixel format reach the rest of the pipeline, which decides the pipeline file: raw video
/// (`default.pipeline`), Motion-JPEG decoded with `jpegdec` (`mjpeg.pipeline`) or Bayer sensor data turned
/// into colour by `bayer2rgb` (`bayer.pipeline`).
public enum SourceKind: String, Sendable, Hashable, Codable, CaseIterable {
    case raw
    case motionJPEG = "mjpeg"
    case bayer

    /// The pipeline file gstcam uses for this kind when none was named.
    public var pipelineName: String {
        switch self {
        case .raw: return "default"
        case .motionJPEG: return "mjpeg"
        case .bayer: return "bayer"
        }
    }

    /// The media type `v4l2src` gives these frames in its caps.
    var mediaType: String {
        switch self {
        case .raw: return "video/x-raw"
        case .motionJPEG: return "image/jpeg"
        case .bayer: return "video/x-bayer"
        }
    }

    /// For people: "raw", "Motion-JPEG, decoded", "Bayer, through bayer2rgb".
    public var label: String {
        switch self {
        case .raw: return "raw"
        case .motionJPEG: return "Motion-JPEG, decoded"
        case .bayer: return "Bayer, through bayer2rgb"
        }
    }

    /// The kind as a format family, for "it offers no Motion-JPEG format".
    public var formatName: String {
        switch self {
        case .raw: return "raw"
        case .motionJPEG: return "Motion-JPEG"
        case .bayer: return "8-bit Bayer"
        }
    }

    /// The kind a pipeline file asks of the camera, read from the media type of its caps.
    public init(pipelineTemplate template: String) {
        if template.containsText(SourceKind.motionJPEG.mediaType) {
            self = .motionJPEG
        } else if template.containsText(SourceKind.bayer.mediaType) {
            self = .bayer
        } else {
            self = .raw
        }
    }

    /// The kind of caps text such as "image/jpeg,width=…".
    public init(caps: String) {
        self = SourceKind.allCases.first { caps.hasPrefix($0.mediaType) } ?? .raw
    }
}

/// Whether gstcam can take a pixel format, and how, or why not.
public enum FormatSupport: Sendable, Hashable {
    case usable(SourceKind)
    case skipped(reason: String)

    public var kind: SourceKind? {
        if case .usable(let kind) = self { return kind }
        return nil
    }

    public var skipReason: String? {
        if case .skipped(let reason) = self { return reason }
        return nil
    }
}

extension PixelFormat {
    /// What gstcam does with this format. Raw formats are usable when GStreamer's `v4l2src` (1.22) has caps
    /// for them; the others are skipped with the reason `gstcam devices` shows.
    public var support: FormatSupport {
        if Self.motionJPEGFormats.contains(self) { return .usable(.motionJPEG) }
        if Self.bayerFormats.contains(self) { return .usable(.bayer) }
        if Self.rawFormats.contains(self) { return .usable(.raw) }
        if Self.deepBayerFormats.contains(self) {
            return .skipped(reason: "10/12/16-bit Bayer: GStreamer's v4l2src (1.22) reads only 8-bit Bayer")
        }
        if Self.encodedVideoFormats.contains(self) {
            return .skipped(reason: "compressed video (\(description)) that gstcam does not decode")
        }
        return .skipped(reason: "GStreamer's v4l2src has no caps for \(description)")
    }

    /// The video/x-raw `format` v4l2src (1.22) gives this fourcc, for the common raw formats whose name is certain:
    /// each was checked on vivid, where asking v4l2src for the name set that fourcc (S_FMT). nil for the rest:
    /// their caps then name no format, and v4l2src picks one of the kind's.
    public var rawCapsFormat: String? { Self.rawCapsFormats[fourcc] }

    private static let rawCapsFormats: [String: String] = [
        "YUYV": "YUY2", "UYVY": "UYVY", "YVYU": "YVYU", "NV12": "NV12", "NV21": "NV21", "NV16": "NV16", "NV61": "NV61",
        "NV24": "NV24", "YU12": "I420", "YV12": "YV12", "422P": "Y42B", "GREY": "GRAY8",
        "Y16 ": "GRAY16_LE", "RGBP": "RGB16", "RGB3": "RGB", "BGR3": "BGR",
    ]

    static let motionJPEGFormats: Set<PixelFormat> = [.mjpeg, .jpeg]

    /// 8-bit Bayer: video/x-bayer bggr, gbrg, grbg, rggb.
    static let bayerFormats: Set<PixelFormat> = Set(["BA81", "GBRG", "GRBG", "RGGB"].compactMap { PixelFormat(fourcc: $0) })

    static let deepBayerFormats: Set<PixelFormat> = Set([
        "BG10", "GB10", "BA10", "RG10", "BG12", "GB12", "BA12", "RG12", "BYR2", "GB16", "GR16", "RG16",
        "pBAA", "pGAA", "pgAA", "pRAA", "pBCC", "pGCC", "pgCC", "pRCC",
    ].compactMap { PixelFormat(fourcc: $0) })

    static let encodedVideoFormats: Set<PixelFormat> = Set(["H264", "HEVC", "H263", "MPG1", "MPG2", "MPG4", "VP80", "VP90", "dvsd", "FWHT"]
        .compactMap { PixelFormat(fourcc: $0) })

    /// The raw fourccs v4l2src 1.22 maps to a video/x-raw format (checked against vivid's 83 formats: these are the
    /// ones v4l2src probed caps for).
    static let rawFormats: Set<PixelFormat> = Set([
        "GREY", "Y16 ",  // GRAY8, GRAY16_LE
        "RGBO", "XR15", "RGBQ",  // RGB15, BGR15
        "RGBP", "RGB3", "BGR3",  // RGB16, RGB, BGR
        "RGB4", "BX24", "XB24", "BGR4", "XR24", "RX24", "AR24", "BA24", "AB24", "RA24",  // 32-bit RGB, alpha or padding
        "NV12", "NM12", "NV21", "NM21", "NV16", "NM16", "NV61", "NM61", "NV24",
        "YU12", "YM12", "YV12", "YUV9", "YVU9", "YUYV", "UYVY", "YVYU", "411P", "422P", "YM16",
    ].compactMap { PixelFormat(fourcc: $0) } + [bigEndian("Y16 "), bigEndian("XR15")])  // GRAY16_BE, BGR15

    /// V4L2's big-endian variant of a fourcc (v4l2_fourcc_be: bit 31 set).
    private static func bigEndian(_ fourcc: String) -> PixelFormat {
        PixelFormat(rawValue: PixelFormat(fourcc: fourcc)!.rawValue | 1 << 31)
    }
}
