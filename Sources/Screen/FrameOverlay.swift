import CGStreamer
import GStreamer
import Synchronization

/// A still picture blended into every frame that leaves an element (a probe on its src pad, into the branch's own
/// copy of the frame), set only when it changes: the control bar is made into pixels once per change
/// (Drawing+Cairo.swift) and only blended per frame — where rsvgoverlay drew its SVG with cairo on every frame, and
/// overlaycomposition's generic blend (unpacking and packing each line) cost as much (docs/benchmarks.md).
/// Frames in a 4-byte RGB format (display.branch's BGRx) get it; others pass untouched.
final class FrameOverlay: Sendable {
    /// The rows of a picture that are not wholly transparent, premultiplied BGRA (a blend is then one multiply per
    /// channel), and the whole picture's size. It is stretched over the whole frame, whatever the frame's size.
    struct Picture: Sendable, Equatable {
        let band: [UInt8]
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
                  pixels.count >= bytesPerRow * (height - 1) + width * 4 else { return nil }
            let rowBytes = width * 4
            // Wholly transparent pixels are all zero (cairo clears to 0), so an empty row compares equal to `zeros`.
            let zeros = [UInt8](repeating: 0, count: rowBytes)
            func isEmpty(_ row: Int) -> Bool { memcmp(pixels.baseAddress! + row * bytesPerRow, zeros, rowBytes) == 0 }
            let top = (0..<height).first { !isEmpty($0) } ?? height
            let bottom = (top..<height).last { !isEmpty($0) }.map { $0 + 1 } ?? top
            var band = [UInt8](repeating: 0, count: (bottom - top) * rowBytes)
            band.withUnsafeMutableBytes { band in
                for row in top..<bottom {
                    memcpy(band.baseAddress! + (row - top) * rowBytes, pixels.baseAddress! + row * bytesPerRow, rowBytes)
                }
            }
            self.init(band: band, top: firstRow + top, rows: bottom - top, width: width, height: pictureHeight)
        }

        init(band: [UInt8], top: Int, rows: Int, width: Int, height: Int) {
            self.band = band
            self.top = top
            self.rows = rows
            self.width = width
            self.height = height
        }

        /// Premultiplied BGRA at a point (transparent outside the band).
        func pixel(x: Int, y: Int) -> [UInt8] {
            guard x >= 0, x < width, y >= top, y < top + rows else { return [0, 0, 0, 0] }
            let offset = ((y - top) * width + x) * 4
            return Array(band[offset..<(offset + 4)])
        }

        /// The picture at another size, nearest pixel (made once per change and size, not per frame).
        func scaled(width newWidth: Int, height newHeight: Int) -> Picture {
            guard newWidth != width || newHeight != height else { return self }
            let newTop = top * newHeight / height
            let newBottom = max(newTop, ((top + rows) * newHeight + height - 1) / height)
            var scaled = [UInt8](repeating: 0, count: (newBottom - newTop) * newWidth * 4)
            for row in newTop..<newBottom {
                let sourceRow = min(top + rows - 1, max(top, row * height / newHeight)) - top
                for x in 0..<newWidth {
                    let source = (sourceRow * width + x * width / newWidth) * 4, target = ((row - newTop) * newWidth + x) * 4
                    for byte in 0..<4 { scaled[target + byte] = band[source + byte] }
                }
            }
            return Picture(band: scaled, top: newTop, rows: newBottom - newTop, width: newWidth, height: newHeight)
        }
    }

    private struct State {
        var picture: Picture?
        /// `picture` laid out for the frames, made on the first frame after a change or of another size or format.
        var layer: (layer: Layer, format: VideoFormat)?
    }

    private let state = Mutex(State())

    /// Blends the pictures `show` is given into the frames leaving `element` from now on.
    init(over element: Element) {
        guard let output = element.staticPad("src") else { return }
        let pad = ProbedPad(output)
        output.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { [weak self] data in
            guard let self, self.state.withLock({ $0.picture != nil }) else { return GST_PAD_PROBE_OK }
            guard let video = pad.videoInfo, let channels = CameraWindow.channels(of: video.format) else { return GST_PAD_PROBE_OK }
            guard let layer = self.layer(for: video, channels: channels) else { return GST_PAD_PROBE_OK }
            // The tee shares each buffer with the other branches: blending needs this branch's own copy.
            guard let buffer = gstcam_probe_info_writable_buffer(data.info) else { return GST_PAD_PROBE_OK }
            var map = GstMapInfo()
            guard gstcam_buffer_map_write(buffer, &map) != 0 else { return GST_PAD_PROBE_OK }
            defer { gst_buffer_unmap(buffer, &map) }
            guard map.size >= video.bytesPerRow * video.height, let frame = map.data else { return GST_PAD_PROBE_OK }
            layer.blend(into: frame, bytesPerRow: video.bytesPerRow)
            return GST_PAD_PROBE_OK
        }
    }

    /// Shows `picture` over the frames from the next one on; nil shows nothing.
    func show(_ picture: Picture?) {
        state.withLock { state in
            state.picture = picture.flatMap { $0.rows > 0 ? $0 : nil }
            state.layer = nil
        }
    }

    private func layer(for video: VideoInfo, channels: (red: Int, green: Int, blue: Int)) -> Layer? {
        state.withLock { state in
            guard let picture = state.picture else { return nil }
            if let (layer, format) = state.layer, layer.width == video.width, layer.height == video.height,
               format == video.format { return layer }
            let layer = Layer(picture, width: video.width, height: video.height, channels: channels)
            state.layer = (layer, video.format)
            return layer
        }
    }
}
