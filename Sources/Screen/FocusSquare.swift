import Controls
/// The yellow focus square of a phone camera screen: it appears at the tapped point a little larger, springs
/// to its size, holds, then fades; gone after `lifetime`.
struct FocusSquare: Sendable, Equatable {
    var center: NormalizedPoint
    var shownAt: ContinuousClock.Instant

    static let lifetime = Duration.milliseconds(600)
    static let springTime = 0.12
    static let fadeStart = 0.35
    /// The square's side as a fraction of the picture's shorter side.
    static let side = 0.22
    static let color: (red: UInt8, green: UInt8, blue: UInt8) = (255, 214, 10)

    /// Scale (1.4 → 1 while springing) and opacity (1 → 0 while fading) at `age` seconds; nil once gone.
    static func appearance(age: Double) -> (scale: Double, opacity: Double)? {
        let lifetime = Self.lifetime.inSeconds
        guard age >= 0, age < lifetime else { return nil }
        let scale = age < springTime ? 1.4 - 0.4 * (age / springTime) : 1
        let opacity = age < fadeStart ? 1 : max(0, 1 - (age - fadeStart) / (lifetime - fadeStart))
        return (scale, opacity)
    }

    /// Draws the square's outline into a 4-byte-per-pixel picture (`redOffset`…: the channel positions of the
    /// format, e.g. BGRx: 2, 1, 0), blended by `opacity`.
    static func draw(into pixels: UnsafeMutableRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
                     channels: (red: Int, green: Int, blue: Int), center: NormalizedPoint, scale: Double, opacity: Double) {
        let sidePixels = Int(Double(min(width, height)) * side * scale)
        let thickness = max(2, min(width, height) / 160)
        let left = Int(center.x * Double(width)) - sidePixels / 2
        let top = Int(center.y * Double(height)) - sidePixels / 2
        let alpha = Int(min(1, max(0, opacity)) * 256)
        func blend(_ x: Int, _ y: Int) {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            let offset = y * bytesPerRow + x * 4
            for (channel, value) in [(channels.red, color.red), (channels.green, color.green), (channels.blue, color.blue)] {
                let old = Int(pixels[offset + channel])
                pixels[offset + channel] = UInt8((Int(value) * alpha + old * (256 - alpha)) >> 8)
            }
        }
        for line in 0..<thickness {
            for x in left..<(left + sidePixels) {
                blend(x, top + line)
                blend(x, top + sidePixels - 1 - line)
            }
            for y in (top + thickness)..<max(top + thickness, top + sidePixels - thickness) {
                blend(left + line, y)
                blend(left + sidePixels - 1 - line, y)
            }
        }
    }
}

