import CGStreamer
import Glibc
import Synchronization

/// A still picture laid over every frame that passes an `overlaycomposition` element, set only when it changes.
/// GStreamer blends it into each frame over the rows it covers, or hands it to a sink that composites it itself;
/// the picture is made once (e.g. an SVG rasterised), not drawn again per frame as rsvgoverlay draws its SVG.
public final class FrameOverlay: Sendable {
    /// BGRA pixels, not premultiplied (what rsvgdec and cairo's unpremultiplied output give), rows top first with
    /// no padding. It is stretched over the whole frame, whatever the frame's size.
    public struct Picture: Sendable, Equatable {
        public let pixels: [UInt8]
        public let width: Int
        public let height: Int

        public init?(pixels: [UInt8], width: Int, height: Int) {
            guard width > 0, height > 0, pixels.count == width * height * 4 else { return nil }
            self.pixels = pixels
            self.width = width
            self.height = height
        }
    }

    /// The rows of a picture that are not wholly transparent: only they are blended into frames.
    private struct Band {
        let pixels: [UInt8]
        let top: Int
        let rows: Int
        let picture: (width: Int, height: Int)
    }

    private struct State {
        var band: Band?
        /// The band made into a composition for frames of `frame`'s size, kept until the picture or the size changes.
        var composition: OpaquePointer?
        var frame = (width: 0, height: 0)
    }

    private let state = Mutex(State())

    /// Lays the pictures `show` is given over the frames passing `overlay` (an overlaycomposition element) from now on.
    public init(over overlay: Element) {
        let context = Unmanaged.passRetained(self).toOpaque()
        _ = gstcam_connect_overlay_draw(overlay.pointer, { _, sample, context in
            guard let sample, let context else { return nil }
            return Unmanaged<FrameOverlay>.fromOpaque(context).takeUnretainedValue().composition(over: sample)
        }, context) { context, _ in
            guard let context else { return }
            Unmanaged<FrameOverlay>.fromOpaque(context).release()
        }
    }

    deinit {
        state.withLock { state in
            if let composition = state.composition { gst_video_overlay_composition_unref(composition) }
        }
    }

    /// Shows `picture` over the frames from the next one on; nil shows nothing.
    public func show(_ picture: Picture?) {
        let band = picture.flatMap(Self.band)
        state.withLock { state in
            if let composition = state.composition { gst_video_overlay_composition_unref(composition) }
            state.composition = nil
            state.band = band
        }
    }

    /// The opaque rows of `picture`; nil when it is wholly transparent.
    private static func band(of picture: Picture) -> Band? {
        let rowBytes = picture.width * 4
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        return picture.pixels.withUnsafeBytes { pixels -> Band? in
            // Wholly transparent pixels are all zero (cairo clears to 0): a row of them compares equal to `zeros`.
            func isEmpty(_ row: Int) -> Bool { memcmp(pixels.baseAddress! + row * rowBytes, zeros, rowBytes) == 0 }
            guard let top = (0..<picture.height).first(where: { !isEmpty($0) }),
                  let bottom = (0..<picture.height).last(where: { !isEmpty($0) }) else { return nil }
            return Band(pixels: Array(picture.pixels[(top * rowBytes)..<((bottom + 1) * rowBytes)]), top: top,
                        rows: bottom + 1 - top, picture: (picture.width, picture.height))
        }
    }

    /// The draw signal, on the streaming thread: the composition for this frame's size (transfer full), or nil.
    private func composition(over sample: OpaquePointer) -> OpaquePointer? {
        var info = GstVideoInfo()
        guard let caps = gst_sample_get_caps(sample), gst_video_info_from_caps(&info, caps) != 0 else { return nil }
        let frame = (width: Int(info.width), height: Int(info.height))
        return state.withLock { state -> OpaquePointer? in
            guard let band = state.band, frame.width > 0, frame.height > 0 else { return nil }
            if state.composition == nil || state.frame != frame {
                if let old = state.composition { gst_video_overlay_composition_unref(old) }
                state.composition = Self.makeComposition(band, frame: frame)
                state.frame = frame
            }
            return state.composition.map { gst_video_overlay_composition_ref($0) }
        }
    }

    /// One rectangle: the band's pixels, placed where the band lies in the picture stretched over the frame
    /// (GStreamer scales the pixels to that size once and keeps them).
    private static func makeComposition(_ band: Band, frame: (width: Int, height: Int)) -> OpaquePointer? {
        guard let buffer = band.pixels.withUnsafeBytes({ gst_buffer_new_memdup($0.baseAddress, gsize($0.count)) }) else { return nil }
        defer { gst_buffer_unref(buffer) }
        gst_buffer_add_video_meta(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_BGRA,
                                  guint(band.picture.width), guint(band.rows))
        let top = band.top * frame.height / band.picture.height
        let bottom = (band.top + band.rows) * frame.height / band.picture.height
        guard let rectangle = gst_video_overlay_rectangle_new_raw(buffer, 0, gint(top), guint(frame.width),
                                                                  guint(max(1, bottom - top)),
                                                                  GST_VIDEO_OVERLAY_FORMAT_FLAG_NONE) else { return nil }
        defer { gst_video_overlay_rectangle_unref(rectangle) }
        return gst_video_overlay_composition_new(rectangle)
    }
}
