import Glibc

extension FrameOverlay {
    /// A picture to blend into frames: the band of its rows that are not wholly transparent, premultiplied BGRA (a
    /// blend is then one multiply per channel; each pixel a little-endian word B | G << 8 | R << 16 | A << 24), kept
    /// as runs (`Runs`), and the whole picture's size. It is stretched over the whole frame, whatever the frame's size.
    struct Picture: Sendable, Equatable {
        /// Row 0 of the runs is the picture's row `top`.
        let runs: Runs
        let top: Int
        let rows: Int
        let width: Int
        let height: Int

        /// From `height` premultiplied BGRA rows (what cairo makes) `bytesPerRow` apart, which are rows
        /// `firstRow`… of a picture `pictureHeight` high (the rest of it transparent); nil when the rows are too
        /// few for the size.
        init?(premultipliedBGRA pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, firstRow: Int = 0,
              pictureHeight: Int? = nil) {
            let pictureHeight = pictureHeight ?? height
            guard width > 0, height > 0, bytesPerRow >= width * 4, firstRow >= 0, firstRow + height <= pictureHeight,
                  pixels.count >= bytesPerRow * (height - 1) + width * 4, let start = pixels.baseAddress else { return nil }
            let rowBytes = width * 4
            // Wholly transparent pixels are all zero (cairo clears to 0), so an empty row compares equal to `zeros`.
            let zeros = [UInt8](repeating: 0, count: rowBytes)
            func isEmpty(_ row: Int) -> Bool { memcmp(start + row * bytesPerRow, zeros, rowBytes) == 0 }
            let top = (0..<height).first { !isEmpty($0) } ?? height
            let bottom = (top..<height).last { !isEmpty($0) }.map { $0 + 1 } ?? top
            var runs = Runs()
            for row in top..<bottom {
                let line = start + row * bytesPerRow
                runs.appendRow(width: width) { UInt32(littleEndian: line.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)) }
            }
            self.init(runs: runs, top: firstRow + top, rows: bottom - top, width: width, height: pictureHeight)
        }

        /// From `rows` rows of `width` premultiplied BGRA pixels (`band`), which are rows `top`… of the picture.
        init(band: [UInt8], top: Int, rows: Int, width: Int, height: Int) {
            var runs = Runs()
            band.withUnsafeBytes { band in
                for row in 0..<rows {
                    runs.appendRow(width: width) {
                        UInt32(littleEndian: band.loadUnaligned(fromByteOffset: (row * width + $0) * 4, as: UInt32.self))
                    }
                }
            }
            self.init(runs: runs, top: top, rows: rows, width: width, height: height)
        }

        init(runs: Runs, top: Int, rows: Int, width: Int, height: Int) {
            self.runs = runs
            self.top = top
            self.rows = rows
            self.width = width
            self.height = height
        }

        /// Premultiplied BGRA at a point (transparent outside the band).
        func pixel(x: Int, y: Int) -> [UInt8] {
            guard x >= 0, x < width, y >= top, y < top + rows else { return [0, 0, 0, 0] }
            var line = [UInt32](repeating: 0, count: width)
            line.withUnsafeMutableBufferPointer { runs.decode(row: y - top, into: $0) }
            return withUnsafeBytes(of: line[x].littleEndian) { Array($0) }
        }

        /// The band stretched to a picture `newWidth` × `newHeight` (nearest pixel): `body` gets each of its rows
        /// in turn, top to bottom, as words. Returns the stretched band's first row in the stretched picture. Made
        /// once per change and frame size, not per frame.
        func stretchedRows(width newWidth: Int, height newHeight: Int, _ body: (UnsafeBufferPointer<UInt32>) -> Void) -> Int {
            let newTop = top * newHeight / height
            let newBottom = max(newTop, ((top + rows) * newHeight + height - 1) / height)
            var source = [UInt32](repeating: 0, count: width)
            var stretched = [UInt32](repeating: 0, count: newWidth)
            var decodedRow: Int?
            source.withUnsafeMutableBufferPointer { source in
                stretched.withUnsafeMutableBufferPointer { stretched in
                    for row in newTop..<newBottom {
                        let sourceRow = min(top + rows - 1, max(top, row * height / newHeight)) - top
                        if decodedRow != sourceRow {
                            runs.decode(row: sourceRow, into: source)
                            decodedRow = sourceRow
                        }
                        guard newWidth != width else {
                            body(UnsafeBufferPointer(source))
                            continue
                        }
                        for x in 0..<newWidth { stretched[x] = source[x * width / newWidth] }
                        body(UnsafeBufferPointer(stretched))
                    }
                }
            }
            return newTop
        }
    }
}
