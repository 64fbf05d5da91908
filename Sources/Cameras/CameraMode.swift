import V4L2
/// One way a camera can deliver frames: a pixel format at a size and a rate (VIDIOC_ENUM_FMT ×
/// ENUM_FRAMESIZES × ENUM_FRAMEINTERVALS), restricted to formats gstcam can take (see `PixelFormat.support`).
public struct CameraMode: Sendable, Hashable, CustomStringConvertible {
    public var pixelFormat: PixelFormat
    public var width: Int
    public var height: Int
    public var frameRate: FrameRate
    /// How the frames reach the pipeline, and so which pipeline file takes them.
    public var kind: SourceKind

    public init(pixelFormat: PixelFormat, width: Int, height: Int, frameRate: FrameRate, kind: SourceKind) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.kind = kind
    }

    public var area: Int { width * height }

    /// "1280x720 at 12.5 fps, raw (YUYV)".
    public var description: String {
        "\(width)x\(height) at \(frameRate) fps, \(kind.label) (\(pixelFormat))"
    }

    /// The caps for the pipeline's `source-caps` filter: the kind's media type at this size and rate, in this
    /// mode's raw format where it has a video/x-raw name (`PixelFormat.rawCapsFormat`). Left to itself v4l2src
    /// picks the format it ranks first (YUYV before a camera's first-listed NV12: not the mode gstcam said it
    /// uses), and every caps query through the pipeline intersects lists of every format.
    public var caps: String {
        "\(kind.mediaType),width=\(width),height=\(height),framerate=\(frameRate.fraction)" + (formatField.map { ",\($0)" } ?? "")
    }

    /// `format=…` for this mode's caps; nil when it names none (Motion-JPEG, Bayer, a raw format without a name).
    public var formatField: String? {
        guard kind == .raw, let format = pixelFormat.rawCapsFormat else { return nil }
        return "format=\(format)"
    }
}

extension Camera {
    /// Every mode of the formats gstcam can take (skipped formats left out). Stepwise and continuous ranges
    /// are offered at their ends and at the common sizes and rates inside them.
    public var modes: [CameraMode] {
        formats.flatMap(\.modes)
    }
}

extension Camera {
    /// Whether a format of `kind` has this size at this rate (inside a stepwise range counts).
    public func offers(_ kind: SourceKind, width: Int, height: Int, frameRate: FrameRate) -> Bool {
        formats.contains { format in
            format.support.kind == kind && format.sizes.contains { $0.contains(width: width, height: height) && $0.offers(frameRate) }
        }
    }
}

extension CameraFrameSize {
    /// Whether this size, or this size range on its step grid, has `width`x`height`.
    func contains(width: Int, height: Int) -> Bool {
        guard let range else { return width == self.width && height == self.height }
        return (range.minWidth...range.maxWidth).contains(width) && (range.minHeight...range.maxHeight).contains(height)
            && (width - range.minWidth) % max(1, range.widthStep) == 0 && (height - range.minHeight) % max(1, range.heightStep) == 0
    }

    /// Whether `rate` is one of the discrete rates, or inside the rate range.
    func offers(_ rate: FrameRate) -> Bool {
        rateRange?.contains(rate) ?? frameRates.contains(rate)
    }
}

extension CameraFormat {
    /// The modes of this format; empty when gstcam skips it.
    public var modes: [CameraMode] {
        guard let kind = pixelFormat.support.kind else { return [] }
        return sizes.flatMap { size in
            size.candidateSizes.flatMap { width, height in
                size.candidateRates.map {
                    CameraMode(pixelFormat: pixelFormat, width: width, height: height, frameRate: $0, kind: kind)
                }
            }
        }
    }
}

extension CameraFrameSize {
    /// Sizes people ask for, tried inside a stepwise/continuous size range.
    static let commonSizes: [(Int, Int)] = [
        (160, 120), (320, 180), (320, 240), (640, 360), (640, 480), (800, 600), (1024, 768), (1280, 720),
        (1280, 960), (1600, 1200), (1920, 1080), (2560, 1440), (2592, 1944), (3840, 2160), (4096, 2160),
    ]

    /// Rates people ask for, tried inside a stepwise/continuous interval range.
    static let commonRates: [FrameRate] = [60, 50, 30, FrameRate(numerator: 30000, denominator: 1001)!, 25, 24, 20, 15,
                                            FrameRate(numerator: 25, denominator: 2)!, 10,
                                            FrameRate(numerator: 15, denominator: 2)!, 5, 2, 1]

    /// The discrete size, or for a range its largest and smallest sizes and the common sizes on its grid.
    var candidateSizes: [(Int, Int)] {
        guard let range else { return [(width, height)] }
        func fits(_ value: Int, _ low: Int, _ high: Int, _ step: Int) -> Bool {
            value >= low && value <= high && (value - low) % max(1, step) == 0
        }
        var sizes = [(range.maxWidth, range.maxHeight)]
        for (w, h) in Self.commonSizes where fits(w, range.minWidth, range.maxWidth, range.widthStep)
            && fits(h, range.minHeight, range.maxHeight, range.heightStep) && (w, h) != (range.maxWidth, range.maxHeight) {
            sizes.append((w, h))
        }
        if (range.minWidth, range.minHeight) != (range.maxWidth, range.maxHeight) {
            sizes.append((range.minWidth, range.minHeight))
        }
        return sizes
    }

    /// The discrete rates, or for a range its ends and the common rates inside it (v4l2src offers an interval
    /// range as a fraction range, so any rate inside it negotiates).
    var candidateRates: [FrameRate] {
        guard let rateRange else { return frameRates }
        let inside = Self.commonRates.filter { rateRange.contains($0) }
        return Array(Set(inside + [rateRange.lowerBound, rateRange.upperBound])).sorted(by: >)
    }
}
