/// The crop that digital zoom applies: a rectangle of the frame 1/factor its size, centred on a normalized
/// point but kept inside the frame, in even pixel counts (YUV 4:2:x formats crop in pairs).
struct DigitalZoomCrop: Equatable, Sendable {
    var left: Int
    var right: Int
    var top: Int
    var bottom: Int

    static let none = DigitalZoomCrop(left: 0, right: 0, top: 0, bottom: 0)

    /// The smallest crop side in pixels: below this, zoom would only magnify noise.
    static let minimumSide = 32

    /// The largest factor a `width`×`height` frame allows, given `minimumSide` and a `limit`.
    static func maximumFactor(width: Int, height: Int, limit: Double) -> Double {
        min(limit, Double(min(width, height)) / Double(minimumSide))
    }

    /// The crop for `factor` (≥ 1) around `center` (0…1 in each axis; 0.5, 0.5 is the middle).
    init(width: Int, height: Int, factor: Double, center: (x: Double, y: Double)) {
        let factor = max(1, factor)
        let cropWidth = Self.even(Double(width) / factor, atLeast: min(width, Self.minimumSide))
        let cropHeight = Self.even(Double(height) / factor, atLeast: min(height, Self.minimumSide))
        left = Self.evenOffset(center: center.x, size: width, crop: cropWidth)
        top = Self.evenOffset(center: center.y, size: height, crop: cropHeight)
        right = width - cropWidth - left
        bottom = height - cropHeight - top
    }

    init(left: Int, right: Int, top: Int, bottom: Int) {
        self.left = left
        self.right = right
        self.top = top
        self.bottom = bottom
    }

    private static func even(_ value: Double, atLeast minimum: Int) -> Int {
        max(minimum, Int(value.rounded()) & ~1)
    }

    private static func evenOffset(center: Double, size: Int, crop: Int) -> Int {
        let wanted = Int((min(1, max(0, center)) * Double(size) - Double(crop) / 2).rounded())
        return min(size - crop, max(0, wanted)) & ~1
    }
}
