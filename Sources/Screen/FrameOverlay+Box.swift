extension FrameOverlay.Picture {
    /// The picture over a black box `opacity` opaque around its pixels, `padding` larger on every side (what
    /// textoverlay's shaded background was, for the status line); a wholly transparent picture stays as it is.
    func onBox(padding: Int, opacity: Double) -> FrameOverlay.Picture {
        guard rows > 0 else { return self }
        var left = width, right = -1
        for row in 0..<rows {
            for x in 0..<width where band[(row * width + x) * 4 + 3] != 0 {
                left = min(left, x)
                right = max(right, x)
            }
        }
        guard right >= left else { return self }
        let boxTop = max(0, top - padding), boxBottom = min(height, top + rows + padding)
        let boxLeft = max(0, left - padding), boxRight = min(width, right + 1 + padding)
        let boxAlpha = UInt32((opacity * 255).rounded())
        var boxed = [UInt8](repeating: 0, count: (boxBottom - boxTop) * width * 4)
        for y in boxTop..<boxBottom {
            for x in boxLeft..<boxRight {
                let target = ((y - boxTop) * width + x) * 4
                var alpha: UInt32 = 0
                if y >= top, y < top + rows {
                    // Premultiplied: the text's colours over black add nothing; the alphas combine.
                    let source = ((y - top) * width + x) * 4
                    for channel in 0..<3 { boxed[target + channel] = band[source + channel] }
                    alpha = UInt32(band[source + 3])
                }
                boxed[target + 3] = UInt8(alpha + (boxAlpha * (255 - alpha) + 127) / 255)
            }
        }
        return FrameOverlay.Picture(band: boxed, top: boxTop, rows: boxBottom - boxTop, width: width, height: height)
    }
}
