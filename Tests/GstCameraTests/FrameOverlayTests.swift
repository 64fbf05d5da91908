import CGStreamer
import GStreamer
import Testing
@testable import Screen

/// The control bar's drawing path (issue 13: rsvgoverlay drew an SVG on every frame): a drawing made into pixels
/// once by cairo and Pango (Drawing+Cairo.swift), then blended by a probe into the frames leaving an element
/// (FrameOverlay), stretched to the frame's size. Read back as decoded pixels.
@Suite struct FrameOverlayTests {
    /// 320×240, transparent but for a half-transparent red band along the bottom quarter (rows 180…239).
    static let band = Drawing(width: 320, height: 240, items: [
        .shape(.rectangle(x: 0, y: 180, width: 320, height: 60), fill: Drawing.Colour(0xFF0000, alpha: 0.5)),
    ])
    static let white = Drawing(width: 64, height: 48, items: [.shape(.rectangle(x: 0, y: 0, width: 64, height: 48), fill: .white)])

    @Test func aDrawingBecomesItsOpaqueRowsPremultiplied() throws {
        let picture = try Self.band.picture()
        #expect(picture.width == 320 && picture.height == 240)
        #expect(picture.top == 180 && picture.rows == 60, "the band is rows \(picture.top)…\(picture.top + picture.rows - 1)")
        #expect(picture.pixel(x: 10, y: 10) == [0, 0, 0, 0])
        let red = picture.pixel(x: 10, y: 200)
        #expect(red[0] < 4 && red[1] < 4 && (124...132).contains(red[2]) && (124...132).contains(red[3]), "\(red)")
        // The shared painter serves the next picture: a wholly white one.
        let white = try Self.white.picture()
        #expect(white.width == 64 && white.height == 48 && white.top == 0 && white.rows == 48)
        #expect(white.pixel(x: 32, y: 24) == [255, 255, 255, 255])
    }

    /// The control bar made into pixels: only its band's rows are rendered, and land where they are in the picture.
    @Test func onlyTheRowsAskedForAreMadeAndKeepTheirPlace() throws {
        let whole = try Self.band.picture()
        let band = try Self.band.picture(rows: 170..<240)
        #expect(band.width == 320 && band.height == 240 && band.top == 180 && band.rows == 60,
                "rows \(band.top)…\(band.top + band.rows - 1) of \(band.height)")
        #expect(band == whole)
        let above = try Self.band.picture(rows: 0..<100)
        #expect(above.rows == 0 && above.height == 240)
    }

    /// One black 640×480 frame through an identity whose output an overlay shows `picture` on (nil: none); its
    /// bytes, in `format`.
    static func frame(showing picture: FrameOverlay.Picture?, format: String = "BGRx") throws -> [UInt8] {
        let pipeline = try PipelineParser.parsePipeline("""
            videotestsrc pattern=black num-buffers=1 ! video/x-raw,format=\(format),width=640,height=480
              ! identity name=layer ! appsink name=out sync=false
            """, file: "FrameOverlayTests")
        defer { _ = pipeline.setState(GST_STATE_NULL) }
        let overlay = FrameOverlay(over: try #require(pipeline.child(named: "layer")))
        overlay.show(picture)
        let sink = try #require(pipeline.child(named: "out"))
        _ = pipeline.setState(GST_STATE_PLAYING)
        return try nextFrameBytes(of: sink)
    }

    static func bgr(_ frame: [UInt8], _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * 640 + x) * 4
        return Array(frame[offset..<(offset + 3)])
    }

    @Test func thePictureIsBlendedOverTheRowsItCoversStretchedToTheFrame() throws {
        GStreamerRuntime.ensureInitialized()
        let picture = try Self.band.picture()
        let frame = try Self.frame(showing: picture)
        // Rows 180…239 of 240 are rows 360…479 of 480: half red over black there, black above.
        for x in [0, 320, 639] {
            #expect(Self.bgr(frame, x, 100) == [0, 0, 0])
            #expect(Self.bgr(frame, x, 358) == [0, 0, 0], "x \(x): above the band")
            for y in [361, 420, 479] {
                let blended = Self.bgr(frame, x, y)
                #expect(blended[0] < 4 && blended[1] < 4 && (122...134).contains(blended[2]), "(\(x), \(y)): \(blended)")
            }
        }
    }

    @Test func whiteOverAPictureIsWhiteAndNothingLeavesTheFrameAlone() throws {
        GStreamerRuntime.ensureInitialized()
        let white = try Self.white.picture()
        let whiteFrame = try Self.frame(showing: white)
        #expect(Self.bgr(whiteFrame, 0, 0) == [255, 255, 255] && Self.bgr(whiteFrame, 639, 479) == [255, 255, 255])
        let transparent = try #require([UInt8](repeating: 0, count: 32 * 24 * 4).withUnsafeBytes {
            FrameOverlay.Picture(premultipliedBGRA: $0, width: 32, height: 24, bytesPerRow: 128)
        })
        #expect(transparent.rows == 0)
        for picture in [nil, transparent] {
            let frame = try Self.frame(showing: picture)
            #expect(frame.enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element == 0 }, "the black frame changed")
        }
    }

    /// The layer is laid out once in the frames' byte order: red lands in the red byte of RGBx and xRGB frames.
    @Test func theBlendFollowsTheFramesByteOrder() throws {
        GStreamerRuntime.ensureInitialized()
        let picture = try Self.band.picture()
        for (format, red, others) in [("RGBx", 0, [1, 2]), ("xRGB", 1, [2, 3]), ("BGRx", 2, [0, 1])] {
            let frame = try Self.frame(showing: picture, format: format)
            for (x, y) in [(0, 361), (320, 420), (639, 479)] {
                let pixel = Array(frame[((y * 640 + x) * 4)..<((y * 640 + x) * 4 + 4)])
                #expect((122...134).contains(pixel[red]) && others.allSatisfy { pixel[$0] < 4 }, "\(format) (\(x), \(y)): \(pixel)")
            }
            #expect(Array(frame[(100 * 640 * 4)..<(100 * 640 * 4 + 4)]).enumerated().allSatisfy { $0.offset == (format == "xRGB" ? 0 : 3) || $0.element == 0 },
                    "\(format): above the band")
        }
    }

    /// The window's status line: white text 25 pixels in from the left and up from the bottom, on a dark box
    /// 6 pixels larger than the text's pixels (textoverlay's look), with the recording dot red.
    @Test func theStatusLineIsWhiteTextOnABoxFittedToIt() throws {
        let (drawing, rows) = StatusLineOverlay.drawing("● REC 0:01 · Camera", width: 640, height: 480)
        let text = try drawing.picture(rows: rows)
        let line = text.onBox(padding: 6, opacity: 0.6)
        #expect(line.top + line.rows <= 480 - 25 + 6 + 1 && line.top >= 480 - 25 - 30, "rows \(line.top)…\(line.top + line.rows - 1)")
        let middle = line.top + line.rows / 2
        #expect(line.pixel(x: 21, y: middle) == [0, 0, 0, 153], "the box, left of the text: \(line.pixel(x: 21, y: middle))")
        #expect(line.pixel(x: 15, y: middle)[3] == 0, "left of the box")
        #expect(line.pixel(x: 400, y: middle)[3] == 0, "right of the box, past the text")
        var white = 0, red = 0
        for y in line.top..<(line.top + line.rows) {
            for x in 0..<640 {
                let pixel = line.pixel(x: x, y: y)
                if pixel.allSatisfy({ $0 > 200 }) { white += 1 }
                if pixel[2] > 240 && pixel[1] < 90 && pixel[0] < 80 && pixel[3] > 250 { red += 1 }
            }
        }
        #expect(white > 100, "white text pixels: \(white)")
        #expect(red > 20, "red dot pixels: \(red)")
    }

    /// The control bar as cairo draws it at 640×480: the shutter's white disc, the thumbnail's picture in its box
    /// (cropped to it, centred), a dimmed torch where the camera has none, and no switch button with one camera.
    @Test func theControlBarDrawsItsButtonsTheThumbnailAndNoSwitchWithOneCamera() throws {
        let layout = ControlBar.Layout(width: 640, height: 480)
        func at(_ button: ControlBar.Button, dx: Double = 0, dy: Double = 0) -> (Int, Int) {
            let place = layout.places[button]!
            return (Int(place.x + dx), Int(place.y + dy))
        }
        // Left half cyan, right half red: the box (72×54) shows the middle, both colours.
        var rgb = [UInt8]()
        for _ in 0..<72 { for x in 0..<128 { rgb += x < 64 ? [0x1E, 0xC8, 0xE0] : [255, 0, 0] } }
        var bar = ControlBar()
        bar.settings = .init(flash: .off, torch: nil, timer: 0, canSwitch: false)
        bar.thumbnail = PhotoThumbnail(path: "a.jpg", width: 128, height: 72, rgb: rgb)
        let picture = try bar.drawing(width: 640, height: 480).picture()
        let (sx, sy) = at(.shutter)
        #expect(picture.pixel(x: sx, y: sy) == [255, 255, 255, 255], "the shutter's disc: \(picture.pixel(x: sx, y: sy))")
        let (tx, ty) = at(.thumbnail)
        let cyan = picture.pixel(x: tx - 10, y: ty), red = picture.pixel(x: tx + 10, y: ty)
        #expect(cyan == [0xE0, 0xC8, 0x1E, 255] && red == [0, 0, 255, 255], "the thumbnail: \(cyan) \(red)")
        // The torch's ring (2 pixels wide at its radius) is white at 40% over the band's black at 35%: 61% opaque.
        let (rx, ry) = at(.torch, dx: layout.places[.torch]!.radius)
        let ring = (rx - 2...rx + 1).map { picture.pixel(x: $0, y: ry) }.max { $0[3] < $1[3] }!
        #expect((145...165).contains(Int(ring[3])) && (95...110).contains(Int(ring[0])), "the dimmed torch's ring: \(ring)")
        // Where the switch button would be, only the band's shade (black at 35%).
        let (cx, cy) = at(.switchCamera, dx: layout.places[.switchCamera]!.radius)
        #expect(picture.pixel(x: cx, y: cy) == [0, 0, 0, 89], "the switch button's place: \(picture.pixel(x: cx, y: cy))")
        bar.settings.canSwitch = true
        let withSwitch = try bar.drawing(width: 640, height: 480).picture()
        let switchRing = (cx - 2...cx + 1).map { withSwitch.pixel(x: $0, y: cy) }.max { $0[3] < $1[3] }!
        #expect(switchRing == [255, 255, 255, 255], "the switch button's ring with two cameras: \(switchRing)")
    }
}
