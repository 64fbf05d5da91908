import V4L2
/// What a mode is for: the preview wants smooth motion, a photo wants pixels.
public enum ModePurpose: String, Sendable, Hashable {
    case preview
    case photo
}

/// What was asked of the mode: any of width, height and rate (`--width/--height/--fps`), or nothing (the
/// purpose's default).
public struct ModeRequest: Sendable, Hashable, CustomStringConvertible {
    public var width: Int?
    public var height: Int?
    public var frameRate: FrameRate?
    public var purpose: ModePurpose

    public init(width: Int? = nil, height: Int? = nil, frameRate: FrameRate? = nil, purpose: ModePurpose) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.purpose = purpose
    }

    /// Whether a size or rate was asked for.
    public var asksForSomething: Bool { width != nil || height != nil || frameRate != nil }

    /// "1280x720 at 30 fps", "width 1280", "12.5 fps".
    public var description: String {
        var size: String?
        switch (width, height) {
        case let (w?, h?): size = "\(w)x\(h)"
        case let (w?, nil): size = "width \(w)"
        case let (nil, h?): size = "height \(h)"
        case (nil, nil): size = nil
        }
        let rate = frameRate.map { "\($0) fps" }
        return [size, rate].compactMap { $0 }.joined(separator: " at ")
    }

    /// Whether `mode` is exactly what was asked (every value that was given).
    public func isMet(by mode: CameraMode) -> Bool {
        (width ?? mode.width) == mode.width && (height ?? mode.height) == mode.height
            && (frameRate ?? mode.frameRate) == mode.frameRate
    }
}

/// The mode rule (docs/modes.md), as pure functions over a camera's mode table.
///
/// - Preview: among sizes up to 1920x1080, a rate of 15 fps or more first, then the largest size, then the
///   highest rate up to 30 fps; raw before Motion-JPEG before Bayer when they tie.
/// - Photo: the largest size at 1 fps or more; at that size the fastest mode up to 15 fps (a faster rate buys
///   nothing for one photo), so Motion-JPEG is taken only where raw is slower than that; raw when they tie.
/// - Asked for a size: that size if the camera has it, else the smallest of the same shape that covers it,
///   else the smallest that covers it, else the largest.
/// - Colour before greyscale always (a greyscale format matters only on a camera that has nothing else). Asked for a rate: that rate at the chosen size, else
///   the nearest there; asked for a rate only: the purpose's choice among the modes with that rate.
public enum ModeChooser {
    static let previewLimit = 1920 * 1080
    static let smoothRate: FrameRate = 15
    static let highestUsefulRate: FrameRate = 30
    static let slowestPhotoRate: FrameRate = 1
    /// Above this, a faster mode is no better for a photo.
    static let enoughForAPhoto: FrameRate = 15

    /// The mode for `request` among `modes`; nil when there is none.
    public static func choose(_ request: ModeRequest, from modes: [CameraMode]) -> CameraMode? {
        guard !modes.isEmpty else { return nil }
        if request.width != nil || request.height != nil {
            let size = nearestSize(to: request, among: modes)
            let atSize = modes.filter { $0.width == size.width && $0.height == size.height }
            if let rate = request.frameRate {
                return best(atSize.filter { $0.frameRate == nearestRate(to: rate, among: atSize) }, for: request.purpose)
            }
            return best(atSize, for: request.purpose)
        }
        if let rate = request.frameRate {
            let exact = modes.filter { $0.frameRate == rate }
            if !exact.isEmpty { return best(exact, for: request.purpose) }
            let size = best(modes, for: request.purpose)!
            let atSize = modes.filter { $0.width == size.width && $0.height == size.height }
            return best(atSize.filter { $0.frameRate == nearestRate(to: rate, among: atSize) }, for: request.purpose)
        }
        return best(modes, for: request.purpose)
    }

    /// The purpose's favourite among `modes` (the driver's order breaks the last ties).
    static func best(_ modes: [CameraMode], for purpose: ModePurpose) -> CameraMode? {
        let indexed = Array(modes.enumerated())
        switch purpose {
        case .preview:
            let fitting = indexed.filter { $0.element.area <= previewLimit }
            if fitting.isEmpty {
                // Only sizes beyond 1920x1080: the smallest of them is the lightest to show.
                return indexed.max { previewRank($0, reversingArea: true).lexicographicallyPrecedes(previewRank($1, reversingArea: true)) }?.element
            }
            return fitting.max { previewRank($0).lexicographicallyPrecedes(previewRank($1)) }?.element
        case .photo:
            return indexed.max { photoRank($0).lexicographicallyPrecedes(photoRank($1)) }?.element
        }
    }

    private static func previewRank(_ entry: (offset: Int, element: CameraMode), reversingArea: Bool = false) -> [Int] {
        let mode = entry.element
        return [mode.pixelFormat.isGreyscale ? 0 : 1, mode.frameRate <= highestUsefulRate ? 1 : 0, mode.frameRate >= smoothRate ? 1 : 0,
                reversingArea ? -mode.area : mode.area, rateOrder(mode.frameRate), -kindOrder(mode.kind), -entry.offset]
    }

    private static func photoRank(_ entry: (offset: Int, element: CameraMode)) -> [Int] {
        let mode = entry.element
        return [mode.pixelFormat.isGreyscale ? 0 : 1, mode.frameRate >= slowestPhotoRate ? 1 : 0, mode.area, rateOrder(min(mode.frameRate, enoughForAPhoto)),
                -kindOrder(mode.kind), mode.frameRate <= highestUsefulRate ? 1 : 0, rateOrder(mode.frameRate), -entry.offset]
    }

    /// Rates in an integer order (millihertz is fine enough to tell 29.97 from 30).
    private static func rateOrder(_ rate: FrameRate) -> Int { Int((rate.value * 1000).rounded()) }

    private static func kindOrder(_ kind: SourceKind) -> Int {
        switch kind {
        case .raw: return 0
        case .motionJPEG: return 1
        case .bayer: return 2
        }
    }

    /// The asked size if offered; else the smallest of the same shape that covers it (both sides given), else
    /// the smallest that covers it, else the largest. With one side given, the other is free.
    static func nearestSize(to request: ModeRequest, among modes: [CameraMode]) -> (width: Int, height: Int) {
        let sizes = modes.map { (width: $0.width, height: $0.height) }
        func matches(_ size: (width: Int, height: Int)) -> Bool {
            (request.width ?? size.width) == size.width && (request.height ?? size.height) == size.height
        }
        func covers(_ size: (width: Int, height: Int)) -> Bool {
            size.width >= (request.width ?? 0) && size.height >= (request.height ?? 0)
        }
        let exact = modes.filter { matches(($0.width, $0.height)) }
        if !exact.isEmpty, let chosen = best(exact, for: request.purpose) { return (chosen.width, chosen.height) }
        let covering = sizes.filter(covers)
        if let w = request.width, let h = request.height {
            let sameShape = covering.filter { $0.width * h == $0.height * w }
            if let smallest = sameShape.min(by: { $0.width * $0.height < $1.width * $1.height }) { return smallest }
        }
        if let smallest = covering.min(by: { $0.width * $0.height < $1.width * $1.height }) { return smallest }
        return sizes.max { $0.width * $0.height < $1.width * $1.height }!
    }

    /// The asked rate if offered, else the nearest (the slower of two equally near).
    static func nearestRate(to wanted: FrameRate, among modes: [CameraMode]) -> FrameRate? {
        modes.map(\.frameRate).min { a, b in
            let da = abs(a.value - wanted.value), db = abs(b.value - wanted.value)
            return da == db ? a < b : da < db
        }
    }
}
