import Testing
@testable import Screen

/// FrameOverlay.Layer's blend (laid out once in runs, vectorised) gives exactly the plain "over" of every pixel, in
/// any 4-byte order, and leaves the bytes past each row's pixels alone; a repeated pixel is stored once.
@Suite struct FrameOverlayLayerTests {
    /// 300×40: rows 10…29 a 35 % black shade across the whole width (the control bar's band), a 50-pixel gradient
    /// from x 100, a 7-pixel white square at x 200, and a 20-pixel transparent gap at x 250.
    static func picture() -> FrameOverlay.Picture {
        let width = 300, top = 10, rows = 20
        var band = [UInt8](repeating: 0, count: width * rows * 4)
        for row in 0..<rows {
            for x in 0..<width where !(250..<270).contains(x) {
                var pixel: [UInt8] = [0, 0, 0, 89]
                if (100..<150).contains(x) {
                    let alpha = UInt8(x - 100 + 100)
                    pixel = [alpha / 3, alpha / 2, alpha, alpha]  // premultiplied: no channel above alpha
                } else if (200..<207).contains(x), row < 7 {
                    pixel = [255, 255, 255, 255]
                }
                band.replaceSubrange((row * width + x) * 4..<(row * width + x) * 4 + 4, with: pixel)
            }
        }
        return FrameOverlay.Picture(band: band, top: top, rows: rows, width: width, height: 40)
    }

    @Test(arguments: [(2, 1, 0), (0, 1, 2), (1, 2, 3)])
    func everyPixelIsThePlainBlend(channels: (red: Int, green: Int, blue: Int)) {
        let picture = Self.picture()
        let layer = FrameOverlay.Layer(picture, width: 300, height: 40, channels: channels)
        let bytesPerRow = 300 * 4 + 16
        var frame = (0..<(bytesPerRow * 40)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        let before = frame
        frame.withUnsafeMutableBytes { layer.blend(into: $0.baseAddress!, bytesPerRow: bytesPerRow) }
        let alphaIndex = 6 - channels.red - channels.green - channels.blue
        var wrong = 0
        for y in 0..<40 {
            for x in 0..<300 {
                let source = picture.pixel(x: x, y: y)  // premultiplied BGRA
                var expected = [UInt8](repeating: 0, count: 4)
                for (byte, value) in [(channels.blue, source[0]), (channels.green, source[1]), (channels.red, source[2]),
                                      (alphaIndex, source[3])] {
                    let under = Int(before[y * bytesPerRow + x * 4 + byte]), keep = 255 - Int(source[3])
                    expected[byte] = UInt8(Int(value) + (2 * under * keep + 255) / 510)
                }
                if Array(frame[(y * bytesPerRow + x * 4)..<(y * bytesPerRow + x * 4 + 4)]) != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) pixels differ from the plain blend")
        // The padding after each row is not the picture's: untouched.
        #expect((0..<40).allSatisfy { frame[$0 * bytesPerRow + 1200..<($0 + 1) * bytesPerRow] == before[$0 * bytesPerRow + 1200..<($0 + 1) * bytesPerRow] })
    }

    /// The shade is kept as one pixel per run and the gap not at all: only the gradient's 50 pixels a row and the
    /// 7-pixel square (shorter than a uniform run) are stored pixel by pixel, not the band's 6,000.
    @Test func repeatedPixelsAreStoredOnce() {
        let layer = FrameOverlay.Layer(Self.picture(), width: 300, height: 40, channels: (2, 1, 0))
        #expect(layer.pixels.count == (20 * 50 + 7 * 7) * 4)
        #expect(!layer.runs.contains { (250..<270).contains($0.x) }, "the transparent gap is not blended")
        #expect(layer.runs.filter { if case .uniform = $0.content { true } else { false } }.count >= 20 * 2)
    }

    /// The picture a window keeps (to lay out again when the frames change size) is kept as runs as well, and gives
    /// back every pixel it was made of: the band's 6,000 pixels are 1,049 stored ones.
    @Test func aPictureKeepsItsRunsAndGivesBackItsPixels() {
        let picture = Self.picture()
        #expect(picture.runs.pixels.count == (20 * 50 + 7 * 7) * 4)
        var wrong = 0
        for y in 0..<40 {
            for x in 0..<300 {
                var expected: [UInt8] = [0, 0, 0, 0]
                if (10..<30).contains(y), !(250..<270).contains(x) {
                    expected = [0, 0, 0, 89]
                    if (100..<150).contains(x) {
                        let alpha = UInt8(x - 100 + 100)
                        expected = [alpha / 3, alpha / 2, alpha, alpha]
                    } else if (200..<207).contains(x), y - 10 < 7 {
                        expected = [255, 255, 255, 255]
                    }
                }
                if picture.pixel(x: x, y: y) != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) pixels differ from the band the picture was made of")
    }
}
