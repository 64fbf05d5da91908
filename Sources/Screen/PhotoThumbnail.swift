import CGStreamer
import CameraErrors
import GStreamer
import PipelineFiles

/// The last photo, small: what the window's control bar and the terminal view's corner show. Made once per photo
/// by decoding the file through pipelines/thumbnail.pipeline (GStreamer's decoder and scaler), on the caller's
/// thread — never a camera's streaming thread.
struct PhotoThumbnail: Sendable, Equatable {
    /// The photo it shows.
    let path: String
    let width: Int
    let height: Int
    /// Rows of `width` × 3 bytes, top first.
    let rgb: [UInt8]

    /// The thumbnail's height; its width follows the photo's aspect ratio.
    static let height = 72

    /// Decodes the photo at `path` (`width` × `height` as taken) into a thumbnail. Throws when the pipeline file
    /// is missing or the photo cannot be decoded within a few seconds.
    static func make(path: String, width: Int, height: Int) throws -> PhotoThumbnail {
        let size = Self.size(photoWidth: width, photoHeight: height)
        let file = try PipelineFile.load("thumbnail")
        let pipeline = try PipelineParser.parsePipeline(try file.description(with: ["width": "\(size.width)", "height": "\(size.height)"]),
                                                        file: file.path)
        guard let source = pipeline.child(named: "file"), let pixels = pipeline.child(named: "pixels") else {
            throw CameraError.missingPipelineElement(file: file.path, name: "file, pixels", purpose: "the photo's thumbnail")
        }
        source.set("location", path)
        defer { _ = pipeline.setState(GST_STATE_NULL) }
        // Paused is enough: the appsink holds the one frame as its preroll.
        _ = pipeline.setState(GST_STATE_PAUSED)
        guard gst_element_get_state(pipeline.pointer, nil, nil, 5_000_000_000) == GST_STATE_CHANGE_SUCCESS,
              let rgb = Self.prerollBytes(of: pixels), rgb.count >= size.width * size.height * 3 else {
            throw ScreenError("The thumbnail of \(path) could not be made: the photo did not decode")
        }
        return PhotoThumbnail(path: path, width: size.width, height: size.height,
                              rgb: Self.packed(rgb, width: size.width, height: size.height))
    }

    /// The thumbnail's size for a photo of this size: `height` rows, the photo's aspect ratio (even width).
    static func size(photoWidth: Int, photoHeight: Int) -> (width: Int, height: Int) {
        let aspect = photoHeight > 0 ? Double(photoWidth) / Double(photoHeight) : 4.0 / 3.0
        return (max(2, Int((Double(height) * aspect / 2).rounded()) * 2), height)
    }

    /// The colour at a point given as fractions of the width and height (nearest pixel).
    func colour(x: Double, y: Double) -> (UInt8, UInt8, UInt8) {
        let column = min(width - 1, max(0, Int(x * Double(width)))), row = min(height - 1, max(0, Int(y * Double(height))))
        let offset = (row * width + column) * 3
        return (rgb[offset], rgb[offset + 1], rgb[offset + 2])
    }

    private static func prerollBytes(of sink: Element) -> [UInt8]? {
        guard let sample = gst_app_sink_try_pull_preroll(gstcam_as_app_sink(sink.pointer), 2_000_000_000) else { return nil }
        defer { gst_sample_unref(sample) }
        guard let buffer = gst_sample_get_buffer(sample) else { return nil }
        var map = GstMapInfo()
        guard gstcam_buffer_map_read(buffer, &map) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        return Array(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// RGB rows without the padding GStreamer puts at the end of each row (rows are 4-byte aligned).
    private static func packed(_ bytes: [UInt8], width: Int, height: Int) -> [UInt8] {
        let stride = bytes.count / height
        guard stride != width * 3 else { return bytes }
        var rows = [UInt8]()
        rows.reserveCapacity(width * height * 3)
        for row in 0..<height { rows += bytes[(row * stride)..<(row * stride + width * 3)] }
        return rows
    }
}
