extension FrameOverlay {
    /// Rows of pixels kept as runs along each row: a run of one pixel repeated (the control bar's shade, the status
    /// line's box) as that pixel alone, wholly transparent pixels (all four bytes zero, as cairo clears) not at all,
    /// the rest pixel by pixel. Each pixel is one little-endian word, in whatever byte order its owner keeps.
    ///
    /// Both the pictures a window keeps (to lay out again at another frame size) and their layers (blended into
    /// every frame) are kept this way (heaptrack of a 1280x720 window preview: everything Swift allocated at the peak
    /// 1.0 → 0.26 MB, when the control bar's picture alone was 0.65 MB of pixels).
    struct Runs: Sendable, Equatable {
        /// `count` pixels from column `x` (of the row whose runs it is among): one pixel repeated (`uniform`) or
        /// `count` pixels of `pixels` from `offset`. 32-bit fields: a control bar has a few thousand runs.
        struct Run: Sendable, Equatable {
            private let start: Int32
            private let length: Int32
            let content: Content

            enum Content: Sendable, Equatable {
                case uniform(UInt32)
                case pixels(offset: Int32)
            }

            var x: Int { Int(start) }
            var count: Int { Int(length) }

            init(x: Int, count: Int, content: Content) {
                start = Int32(x)
                length = Int32(count)
                self.content = content
            }
        }

        private(set) var runs: [Run] = []
        /// The pixels of the runs that are not uniform, four bytes each.
        private(set) var pixels: [UInt8] = []
        /// Where each row's runs begin in `runs`, and where the last row's end.
        private var rowStarts: [Int] = [0]

        /// A run of the same pixel at least this long is kept as one pixel (a shorter one is cheaper as pixels).
        static let shortestUniformRun = 8

        var rowCount: Int { rowStarts.count - 1 }

        /// Adds the next row: `width` pixels, pixel `x` being `pixel(x)`.
        mutating func appendRow(width: Int, _ pixel: (Int) -> UInt32) {
            var x = 0
            var literalStart: Int?
            func endLiteral(at end: Int) {
                guard let start = literalStart else { return }
                runs.append(Run(x: start, count: end - start, content: .pixels(offset: Int32(pixels.count))))
                for column in start..<end { withUnsafeBytes(of: pixel(column).littleEndian) { pixels.append(contentsOf: $0) } }
                literalStart = nil
            }
            while x < width {
                let value = pixel(x)
                var end = x + 1
                while end < width, pixel(end) == value { end += 1 }
                if value == 0 || end - x >= Self.shortestUniformRun {
                    endLiteral(at: x)
                    if value != 0 { runs.append(Run(x: x, count: end - x, content: .uniform(value))) }
                } else if literalStart == nil {
                    literalStart = x
                }
                x = end
            }
            endLiteral(at: width)
            rowStarts.append(runs.count)
        }

        /// Row `row`'s pixels written into `words` (zero where no run is; all zero for a row not kept).
        func decode(row: Int, into words: UnsafeMutableBufferPointer<UInt32>) {
            words.update(repeating: 0)
            guard row >= 0, row < rowCount else { return }
            pixels.withUnsafeBytes { pixels in
                for run in self.runs(ofRow: row) {
                    let end = min(run.x + run.count, words.count)
                    guard run.x < end else { continue }
                    switch run.content {
                    case let .uniform(value):
                        for x in run.x..<end { words[x] = value }
                    case let .pixels(offset):
                        for x in run.x..<end {
                            words[x] = UInt32(littleEndian: pixels.loadUnaligned(fromByteOffset: Int(offset) + (x - run.x) * 4, as: UInt32.self))
                        }
                    }
                }
            }
        }

        /// Row `row`'s runs, left to right.
        func runs(ofRow row: Int) -> ArraySlice<Run> { runs[rowStarts[row]..<rowStarts[row + 1]] }

        /// The columns of the leftmost and rightmost pixels kept, nil when none is.
        var columns: ClosedRange<Int>? {
            guard let left = runs.map(\.x).min(), let right = runs.map({ $0.x + $0.count - 1 }).max() else { return nil }
            return left...right
        }
    }
}
