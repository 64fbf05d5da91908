import CGStreamer
import GStreamer
import Synchronization

/// A still picture blended into every frame that leaves an element (a probe on its src pad, into the branch's own
/// copy of the frame), set only when it changes: the control bar is made into pixels once per change
/// (Drawing+Cairo.swift) and only blended per frame — where rsvgoverlay drew its SVG with cairo on every frame, and
/// overlaycomposition's generic blend (unpacking and packing each line) cost as much (docs/benchmarks.md).
/// Frames in a 4-byte RGB format (display.branch's BGRx) get it; others pass untouched.
final class FrameOverlay: Sendable {
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
