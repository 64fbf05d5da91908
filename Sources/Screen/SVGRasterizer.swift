import CGStreamer
import CameraErrors
import GStreamer
import PipelineFiles

/// SVG documents made into pixels by GStreamer's rsvgdec (pipelines/svg-picture.pipeline), one picture per call:
/// the control bar and the status line are drawn this way once per change, then only blended into frames
/// (FrameOverlay). One pipeline, kept running, serves every call of its user; calls must not overlap
/// (ControlBarOverlay and StatusLineOverlay make them under their locks).
final class SVGRasterizer {
    private let pipeline: Element
    private let source: Element
    private let sink: Element
    private let file: String
    /// What it draws, for errors ("the control bar").
    private let subject: String

    /// How long a picture may take before it is given up (rsvgdec takes milliseconds).
    static let timeout: GstClockTime = 2_000_000_000

    init(drawing subject: String = "the control bar") throws {
        self.subject = subject
        let file = try PipelineFile.load("svg-picture")
        pipeline = try PipelineParser.parsePipeline(try file.description(with: [:]), file: file.path)
        guard let source = pipeline.child(named: "svg"), let sink = pipeline.child(named: "pixels") else {
            throw CameraError.missingPipelineElement(file: file.path, name: "svg, pixels", purpose: "\(subject)'s picture")
        }
        self.source = source
        self.sink = sink
        self.file = file.path
        guard pipeline.setState(GST_STATE_PLAYING) != .failure else {
            _ = pipeline.setState(GST_STATE_NULL)
            throw ScreenError("\(subject.capitalizedFirst) cannot be drawn: \(file.path) did not start")
        }
    }

    deinit { _ = pipeline.setState(GST_STATE_NULL) }

    /// `svg` as pixels; throws when rsvgdec refuses it or takes longer than `timeout`.
    func picture(of svg: String) throws -> FrameOverlay.Picture { try picture(of: svg, firstRow: 0, pictureHeight: nil) }

    /// Only `rows` of `svg`, a `width` × `height` document, as pixels (the rest of the picture transparent): the
    /// control bar's band alone costs rsvgdec a band-sized surface and frame, not two frame-sized ones.
    func picture(of svg: String, rows: Range<Int>, width: Int, height: Int) throws -> FrameOverlay.Picture {
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { throw ScreenError("\(subject.capitalizedFirst)'s rows \(rows) are outside its \(height) rows") }
        // The document nested in one that shows only those rows (its viewBox), at their size.
        let window = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(rows.count)\" "
            + "viewBox=\"0 \(rows.lowerBound) \(width) \(rows.count)\">\(svg)</svg>"
        return try picture(of: window, firstRow: rows.lowerBound, pictureHeight: height)
    }

    private func picture(of svg: String, firstRow: Int, pictureHeight: Int?) throws -> FrameOverlay.Picture {
        let bytes = Array(svg.utf8)
        guard let buffer = bytes.withUnsafeBytes({ gst_buffer_new_memdup($0.baseAddress, gsize($0.count)) }),
              gstcam_app_src_push_buffer(source.pointer, buffer) == GST_FLOW_OK else {
            throw ScreenError("\(subject.capitalizedFirst) cannot be drawn: \(file) no longer takes pictures")
        }
        guard let sample = gst_app_sink_try_pull_sample(gstcam_as_app_sink(sink.pointer), Self.timeout) else {
            throw ScreenError("\(subject.capitalizedFirst) cannot be drawn: \(file) made no picture of it within 2 s")
        }
        defer { gst_sample_unref(sample) }
        var info = GstVideoInfo()
        guard let caps = gst_sample_get_caps(sample), gst_video_info_from_caps(&info, caps) != 0,
              let frame = gst_sample_get_buffer(sample) else {
            throw ScreenError("\(subject.capitalizedFirst) cannot be drawn: \(file) made a picture without a size")
        }
        let width = Int(info.width), height = Int(info.height)
        var map = GstMapInfo()
        guard gstcam_buffer_map_read(frame, &map) != 0 else { throw ScreenError("\(subject.capitalizedFirst)'s picture cannot be read") }
        defer { gst_buffer_unmap(frame, &map) }
        guard let picture = FrameOverlay.Picture(bgra: UnsafeRawBufferPointer(start: map.data, count: Int(map.size)),
                                                 width: width, height: height, bytesPerRow: Int(info.stride.0),
                                                 firstRow: firstRow, pictureHeight: pictureHeight) else {
            throw ScreenError("\(subject.capitalizedFirst)'s picture is smaller than its size (\(width)x\(height))")
        }
        return picture
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
