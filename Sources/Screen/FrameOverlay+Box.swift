extension FrameOverlay.Picture {
    /// The picture over a black box `opacity` opaque around its pixels, `padding` larger on every side (what
    /// textoverlay's shaded background was, for the status line); a wholly transparent picture stays as it is.
    func onBox(padding: Int, opacity: Double) -> FrameOverlay.Picture {
        guard rows > 0, let columns = runs.columns else { return self }
        let boxTop = max(0, top - padding), boxBottom = min(height, top + rows + padding)
        let boxColumns = max(0, columns.lowerBound - padding)..<min(width, columns.upperBound + 1 + padding)
        let boxAlpha = UInt32((opacity * 255).rounded())
        var boxed = FrameOverlay.Runs()
        var line = [UInt32](repeating: 0, count: width)
        line.withUnsafeMutableBufferPointer { line in
            for y in boxTop..<boxBottom {
                runs.decode(row: y - top, into: line)
                for x in 0..<width {
                    guard boxColumns.contains(x) else { line[x] = 0; continue }
                    // Premultiplied: the text's colours over black add nothing; the alphas combine.
                    let alpha = line[x] >> 24
                    line[x] = line[x] & 0x00FF_FFFF | (alpha + (boxAlpha * (255 - alpha) + 127) / 255) << 24
                }
                boxed.appendRow(width: width) { line[$0] }
            }
        }
        return FrameOverlay.Picture(runs: boxed, top: boxTop, rows: boxBottom - boxTop, width: width, height: height)
    }
}
