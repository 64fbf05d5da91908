extension FrameOverlay {
    /// A picture laid out for the frames it is blended into, made once per change and frame size: its band
    /// stretched to the frames' size, each pixel's bytes in the frames' order with its alpha where the frames
    /// keep their fourth byte, cut into runs along each row. A run of one pixel repeated (the control bar's shade,
    /// the status line's box) is kept as that pixel alone, and wholly transparent runs are left out: a frame's
    /// blend then reads, for most of the band, only the frame itself. Before, every covered byte had its picture
    /// byte and its "keep" byte read from two frame-sized arrays as well, and the blend (memory-bound) cost
    /// 4.6 ms a second of the window preview at 1280x720 (perf, docs/benchmarks.md).
    struct Layer: Sendable {
        typealias Run = Runs.Run

        /// The runs in the frames' byte order, row 0 being the frame's row `top`.
        private let encoded: Runs
        var runs: [Run] { encoded.runs }
        /// The pixels of the runs that are not uniform, in the frames' byte order.
        var pixels: [UInt8] { encoded.pixels }
        let top: Int
        let width: Int
        let height: Int
        /// Where a pixel keeps its alpha (the frames' fourth byte).
        let alphaIndex: Int

        /// `picture` for frames `width` × `height` whose red, green and blue are the bytes `channels` says.
        init(_ picture: Picture, width: Int, height: Int, channels: (red: Int, green: Int, blue: Int)) {
            let alphaIndex = 6 - channels.red - channels.green - channels.blue
            // Premultiplied BGRA to the frames' order, as one little-endian word (transparent stays zero).
            func reordered(_ bgra: UInt32) -> UInt32 {
                (bgra & 0xFF) << (8 * channels.blue) | (bgra >> 8 & 0xFF) << (8 * channels.green)
                    | (bgra >> 16 & 0xFF) << (8 * channels.red) | (bgra >> 24) << (8 * alphaIndex)
            }
            var encoded = Runs()
            top = picture.stretchedRows(width: width, height: height) { row in
                encoded.appendRow(width: width) { reordered(row[$0]) }
            }
            self.encoded = encoded
            self.alphaIndex = alphaIndex
            self.width = width
            self.height = height
        }

        /// Blends the layer into a frame of its size `bytesPerRow` apart.
        func blend(into frame: UnsafeMutableRawPointer, bytesPerRow: Int) {
            let alphaShift = UInt32(8 * alphaIndex)
            encoded.pixels.withUnsafeBytes { pixels in
                for row in 0..<encoded.rowCount {
                    let line = frame + (top + row) * bytesPerRow
                    for run in encoded.runs(ofRow: row) {
                        let to = line + run.x * 4
                        switch run.content {
                        case let .uniform(pixel):
                            Self.blend(uniform: pixel, alphaShift: alphaShift, into: to, count: run.count)
                        case let .pixels(offset):
                            Self.blend(pixels.baseAddress! + Int(offset), alphaShift: alphaShift, into: to, count: run.count)
                        }
                    }
                }
            }
        }

        /// What each byte of four pixels keeps of the frame: 255 − its pixel's alpha (the byte at `alphaShift`).
        @inline(__always)
        private static func keeps(of pixels: SIMD4<UInt32>, alphaShift: UInt32) -> SIMD16<UInt8> {
            let alpha = (pixels &>> alphaShift) & 0xFF
            return unsafeBitCast(~(alpha | alpha &<< 8 | alpha &<< 16 | alpha &<< 24), to: SIMD16<UInt8>.self)
        }

        /// Premultiplied "over" on 16 bytes (the alpha byte too: that is alpha compositing's own rule, and a
        /// BGRx frame ignores it): picture + frame × keep / 255, with x / 255 as (x + 128 + (x + 128) >> 8) >> 8,
        /// exact for the products of two bytes.
        @inline(__always)
        /// The bytes are worked on as 16-bit lanes, even and odd bytes apart: SIMD16's widening conversions are
        /// not compiled to vector code but called per block.
        private static func over(_ picture: SIMD16<UInt8>, keeping keeps: SIMD16<UInt8>, _ frame: SIMD16<UInt8>) -> SIMD16<UInt8> {
            let frame = unsafeBitCast(frame, to: SIMD8<UInt16>.self), keeps = unsafeBitCast(keeps, to: SIMD8<UInt16>.self)
            let low = SIMD8<UInt16>(repeating: 0xFF)
            let even = divided((frame & low) &* (keeps & low)), odd = divided((frame &>> 8) &* (keeps &>> 8))
            return unsafeBitCast(even | odd &<< 8, to: SIMD16<UInt8>.self) &+ picture
        }

        /// x / 255 as (x + 128 + (x + 128) >> 8) >> 8 for each product of two bytes.
        @inline(__always)
        private static func divided(_ product: SIMD8<UInt16>) -> SIMD8<UInt16> {
            let mixed = product &+ 128
            return (mixed &+ (mixed &>> 8)) &>> 8
        }

        /// The same on one pixel (a run's last one to three).
        @inline(__always)
        private static func over(_ picture: UInt32, alphaShift: UInt32, into frame: UnsafeMutableRawPointer) {
            let keep = 255 - (UInt16(truncatingIfNeeded: picture >> alphaShift) & 0xFF)
            for byte in 0..<4 {
                let mixed = UInt16(frame.load(fromByteOffset: byte, as: UInt8.self)) &* keep &+ 128
                let value = UInt16(truncatingIfNeeded: picture >> (8 * UInt32(byte))) & 0xFF
                frame.storeBytes(of: UInt8(truncatingIfNeeded: value &+ ((mixed &+ (mixed >> 8)) >> 8)),
                                 toByteOffset: byte, as: UInt8.self)
            }
        }

        private static func blend(uniform pixel: UInt32, alphaShift: UInt32, into frame: UnsafeMutableRawPointer, count: Int) {
            let four = SIMD4<UInt32>(repeating: pixel.littleEndian)
            let picture = unsafeBitCast(four, to: SIMD16<UInt8>.self), keeps = Self.keeps(of: four, alphaShift: alphaShift)
            var done = 0
            while done + 4 <= count {
                let at = frame + done * 4
                at.storeBytes(of: over(picture, keeping: keeps, at.loadUnaligned(as: SIMD16<UInt8>.self)), as: SIMD16<UInt8>.self)
                done += 4
            }
            for rest in done..<count { over(pixel, alphaShift: alphaShift, into: frame + rest * 4) }
        }

        private static func blend(_ source: UnsafeRawPointer, alphaShift: UInt32, into frame: UnsafeMutableRawPointer, count: Int) {
            var done = 0
            while done + 4 <= count {
                let picture = source.loadUnaligned(fromByteOffset: done * 4, as: SIMD16<UInt8>.self)
                let keeps = Self.keeps(of: unsafeBitCast(picture, to: SIMD4<UInt32>.self), alphaShift: alphaShift)
                let at = frame + done * 4
                at.storeBytes(of: over(picture, keeping: keeps, at.loadUnaligned(as: SIMD16<UInt8>.self)), as: SIMD16<UInt8>.self)
                done += 4
            }
            for rest in done..<count {
                over(UInt32(littleEndian: source.loadUnaligned(fromByteOffset: rest * 4, as: UInt32.self)), alphaShift: alphaShift,
                     into: frame + rest * 4)
            }
        }
    }
}
