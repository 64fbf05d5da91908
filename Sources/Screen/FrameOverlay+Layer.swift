extension FrameOverlay {
    /// A picture laid out for the frames it is blended into, made once per change and frame size: its band
    /// stretched to the frames' size, each pixel's bytes in the frames' order with its alpha where the frames
    /// keep their fourth byte, and what each byte keeps of the frame (255 − its pixel's alpha). A frame's blend is
    /// then the same arithmetic on every byte, with no per-pixel test, channel lookup or alpha fetch, which the
    /// compiler vectorises (perf: the per-pixel blend was 8.5 % of the window preview's CPU at 1280x720).
    ///
    /// Each row is cut into runs, skipping wholly transparent pixels. Most of what is drawn is one colour over many
    /// pixels (the control bar's shaded band, the status line's box): such a run is blended from one pixel's bytes
    /// repeated, so a frame's blend reads only the frame there. Streaming a layer-sized copy of the picture and
    /// of its alphas along with every frame made the blend memory-bound: 1.3 MB more read per 1280x720 frame for
    /// the control bar alone, 520 perf samples in 8 s of window preview.
    struct Layer: Sendable {
        /// Pixels in a row of one colour, at least `uniformPixels` of them, or any pixels (their bytes and keeps
        /// at `offset` in `mixedBytes` and `mixedKeeps`).
        enum Paint: Sendable, Equatable {
            case uniform(pixel: [UInt8], keep: UInt8)
            case mixed(offset: Int)
        }

        struct Run: Sendable, Equatable {
            /// The run's first pixel in the row, and its length in pixels.
            let x: Int
            let pixels: Int
            let paint: Paint
        }

        /// Fewer alike pixels than this stay in a mixed run: a uniform run's loop costs more to start than a short
        /// stretch of plain blending.
        static let uniformPixels = 16

        let top: Int
        /// Each row's runs, from `top` down.
        let rows: [[Run]]
        let mixedBytes: [UInt8]
        let mixedKeeps: [UInt8]
        let width: Int
        let height: Int

        /// `picture` for frames `width` × `height` whose red, green and blue are the bytes `channels` says.
        init(_ picture: Picture, width: Int, height: Int, channels: (red: Int, green: Int, blue: Int)) {
            let scaled = picture.scaled(width: width, height: height)
            let alphaIndex = 6 - channels.red - channels.green - channels.blue
            let band = scaled.band
            var mixedBytes: [UInt8] = [], mixedKeeps: [UInt8] = []
            /// The band's pixel at `index` in the frames' byte order.
            func pixel(_ index: Int) -> [UInt8] {
                var bytes = [UInt8](repeating: 0, count: 4)
                bytes[channels.blue] = band[index * 4]
                bytes[channels.green] = band[index * 4 + 1]
                bytes[channels.red] = band[index * 4 + 2]
                bytes[alphaIndex] = band[index * 4 + 3]
                return bytes
            }
            func isTransparent(_ index: Int) -> Bool { band[index * 4 + 3] == 0 }
            func isAlike(_ a: Int, _ b: Int) -> Bool {
                band[a * 4] == band[b * 4] && band[a * 4 + 1] == band[b * 4 + 1] && band[a * 4 + 2] == band[b * 4 + 2]
                    && band[a * 4 + 3] == band[b * 4 + 3]
            }
            rows = (0..<scaled.rows).map { row in
                let first = row * width
                var runs: [Run] = []
                /// Pixels from `start` (a column) not yet in a run: they become one mixed run.
                var pending: Int?
                func flushMixed(upTo end: Int) {
                    guard let start = pending, end > start else { pending = nil; return }
                    runs.append(Run(x: start, pixels: end - start, paint: .mixed(offset: mixedBytes.count)))
                    let offset = mixedBytes.count
                    mixedBytes += repeatElement(0, count: (end - start) * 4)
                    mixedKeeps += repeatElement(0, count: (end - start) * 4)
                    for x in start..<end {
                        let source = (first + x) * 4, target = offset + (x - start) * 4
                        mixedBytes[target + channels.blue] = band[source]
                        mixedBytes[target + channels.green] = band[source + 1]
                        mixedBytes[target + channels.red] = band[source + 2]
                        mixedBytes[target + alphaIndex] = band[source + 3]
                        for byte in 0..<4 { mixedKeeps[target + byte] = 255 - band[source + 3] }
                    }
                    pending = nil
                }
                var x = 0
                while x < width {
                    if isTransparent(first + x) {
                        flushMixed(upTo: x)
                        x += 1
                        continue
                    }
                    var end = x + 1
                    while end < width, isAlike(first + end, first + x) { end += 1 }
                    if end - x >= Self.uniformPixels {
                        flushMixed(upTo: x)
                        runs.append(Run(x: x, pixels: end - x, paint: .uniform(pixel: pixel(first + x), keep: 255 - band[(first + x) * 4 + 3])))
                    } else if pending == nil {
                        pending = x
                    }
                    x = end
                }
                flushMixed(upTo: width)
                return runs
            }
            self.mixedBytes = mixedBytes
            self.mixedKeeps = mixedKeeps
            top = scaled.top
            self.width = width
            self.height = height
        }

        /// Blends the layer into a frame of its size `bytesPerRow` apart.
        func blend(into frame: UnsafeMutableRawPointer, bytesPerRow: Int) {
            mixedBytes.withUnsafeBufferPointer { bytes in
                mixedKeeps.withUnsafeBufferPointer { keeps in
                    for (row, runs) in rows.enumerated() {
                        let line = (frame + (top + row) * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                        for run in runs {
                            switch run.paint {
                            case let .uniform(pixel, keep):
                                Self.blend(pixel, keeping: keep, into: line + run.x * 4, count: run.pixels * 4)
                            case let .mixed(offset):
                                Self.blend(bytes.baseAddress! + offset, keeping: keeps.baseAddress! + offset,
                                           into: line + run.x * 4, count: run.pixels * 4)
                            }
                        }
                    }
                }
            }
        }

        /// Premultiplied "over" on every byte (the alpha byte too: that is alpha compositing's own rule, and a
        /// BGRx frame ignores it): picture + frame × keep / 255, with x / 255 as (x + 128 + (x + 128) >> 8) >> 8,
        /// exact for the products of two bytes.
        private static func blend(_ picture: UnsafePointer<UInt8>, keeping keeps: UnsafePointer<UInt8>,
                                  into frame: UnsafeMutablePointer<UInt8>, count: Int) {
            for byte in 0..<count {
                frame[byte] = over(picture[byte], frame[byte], keeping: keeps[byte])
            }
        }

        /// The same over `count` bytes of pixels alike: the pixel repeated in a 64-byte block (L1, not streamed).
        private static func blend(_ pixel: [UInt8], keeping keep: UInt8, into frame: UnsafeMutablePointer<UInt8>, count: Int) {
            let blockBytes = 64
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: blockBytes) { block in
                for byte in 0..<blockBytes { block[byte] = pixel[byte & 3] }
                let pattern = UnsafePointer(block.baseAddress!)
                var start = 0
                while start + blockBytes <= count {
                    let target = frame + start
                    for byte in 0..<blockBytes { target[byte] = over(pattern[byte], target[byte], keeping: keep) }
                    start += blockBytes
                }
                for byte in start..<count { frame[byte] = over(pattern[byte - start], frame[byte], keeping: keep) }
            }
        }

        @inline(__always)
        private static func over(_ picture: UInt8, _ frame: UInt8, keeping keep: UInt8) -> UInt8 {
            let mixed = UInt16(frame) &* UInt16(keep) &+ 128
            return UInt8(truncatingIfNeeded: UInt16(picture) &+ ((mixed &+ (mixed >> 8)) >> 8))
        }
    }
}
