import CGStreamer
import GStreamer
import Testing
@testable import Screen

/// The control bar's drawing path (issue 13: rsvgoverlay drew the SVG on every frame): an SVG made into pixels
/// once by rsvgdec (SVGRasterizer, pipelines/svg-picture.pipeline), then blended by overlaycomposition into the
/// frames it covers (FrameOverlay), stretched to the frame's size. Read back as decoded pixels.
@Suite struct FrameOverlayTests {
    /// 320×240, transparent but for a half-transparent red band along the bottom quarter (rows 180…239).
    static let band = """
        <svg xmlns="http://www.w3.org/2000/svg" width="320" height="240">\
        <rect x="0" y="180" width="320" height="60" fill="#ff0000" fill-opacity="0.5"/></svg>
        """

    static func pixel(_ picture: FrameOverlay.Picture, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * picture.width + x) * 4
        return Array(picture.pixels[offset..<(offset + 4)])
    }

    @Test func anSVGBecomesUnpremultipliedBGRAOfItsOwnSize() throws {
        GStreamerRuntime.ensureInitialized()
        let rasterizer = try SVGRasterizer()
        let picture = try rasterizer.picture(of: Self.band)
        #expect(picture.width == 320 && picture.height == 240)
        #expect(Self.pixel(picture, 10, 10) == [0, 0, 0, 0])
        let red = Self.pixel(picture, 10, 200)
        #expect(red[0] < 4 && red[1] < 4 && red[2] > 250 && (124...132).contains(red[3]), "\(red)")
        // The same pipeline serves the next picture: a wholly white one.
        let white = try rasterizer.picture(of: """
            <svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="64" height="48" fill="white"/></svg>
            """)
        #expect(white.width == 64 && white.height == 48 && Self.pixel(white, 32, 24) == [255, 255, 255, 255])
    }

    /// One black 640×480 frame through an overlaycomposition showing `picture` (nil: none); its BGRx bytes.
    static func frame(showing picture: FrameOverlay.Picture?) throws -> [UInt8] {
        let pipeline = try PipelineParser.parsePipeline("""
            videotestsrc pattern=black num-buffers=1 ! video/x-raw,format=BGRx,width=640,height=480
              ! overlaycomposition name=overlay ! appsink name=out sync=false
            """, file: "FrameOverlayTests")
        defer { _ = pipeline.setState(GST_STATE_NULL) }
        let overlay = FrameOverlay(over: try #require(pipeline.child(named: "overlay")))
        overlay.show(picture)
        let sink = try #require(pipeline.child(named: "out"))
        _ = pipeline.setState(GST_STATE_PLAYING)
        let sample = try #require(gst_app_sink_try_pull_sample(gstcam_as_app_sink(sink.pointer), 5_000_000_000))
        defer { gst_sample_unref(sample) }
        let buffer = try #require(gst_sample_get_buffer(sample))
        var map = GstMapInfo()
        try #require(gstcam_buffer_map_read(buffer, &map) != 0)
        defer { gst_buffer_unmap(buffer, &map) }
        return Array(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    static func bgr(_ frame: [UInt8], _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * 640 + x) * 4
        return Array(frame[offset..<(offset + 3)])
    }

    @Test func thePictureIsBlendedOverTheRowsItCoversStretchedToTheFrame() throws {
        GStreamerRuntime.ensureInitialized()
        let picture = try SVGRasterizer().picture(of: Self.band)
        let frame = try Self.frame(showing: picture)
        // Rows 180…239 of 240 are rows 360…479 of 480: half red over black there, black above.
        for x in [0, 320, 639] {
            #expect(Self.bgr(frame, x, 100) == [0, 0, 0])
            #expect(Self.bgr(frame, x, 350) == [0, 0, 0], "x \(x): above the band")
            let blended = Self.bgr(frame, x, 420)
            #expect(blended[0] < 8 && blended[1] < 8 && (118...138).contains(blended[2]), "x \(x): \(blended)")
            #expect((118...138).contains(Self.bgr(frame, x, 365)[2]), "x \(x): the band's top rows")
        }
    }

    @Test func nothingOrATransparentPictureLeavesTheFrameAlone() throws {
        GStreamerRuntime.ensureInitialized()
        let transparent = try #require(FrameOverlay.Picture(pixels: [UInt8](repeating: 0, count: 32 * 24 * 4), width: 32, height: 24))
        for picture in [nil, transparent] {
            let frame = try Self.frame(showing: picture)
            #expect(frame.enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element == 0 }, "the black frame changed")
        }
    }
}
