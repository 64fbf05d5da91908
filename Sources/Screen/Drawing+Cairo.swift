import CCairo
import Synchronization

extension Drawing {
    /// The drawing's `rows` (all of them by default) as pixels, made by cairo, the text by Pango with the fonts
    /// textoverlay uses: the rest of the picture transparent, so the control bar's band alone costs a band-sized
    /// surface. Throws when cairo and Pango cannot be loaded or the surface cannot be made.
    func picture(rows wanted: Range<Int>? = nil) throws -> FrameOverlay.Picture {
        let rows = (wanted ?? 0..<height).clamped(to: 0..<max(0, height))
        guard width > 0, !rows.isEmpty else {
            throw ScreenError("A drawing's rows \(wanted ?? 0..<height) are outside its \(width)x\(height) pixels")
        }
        return try CairoPainter.shared.withLock { painter in
            let library = try painter.library()
            let fontMap = try painter.fontMap(library)
            let canvas = try CairoCanvas(library: library, width: width, height: rows.count, fontMap: fontMap)
            canvas.translate(x: 0, y: -Double(rows.lowerBound))
            for item in items { canvas.draw(item) }
            return try canvas.picture(firstRow: rows.lowerBound, pictureHeight: height)
        }
    }
}

/// What every drawing shares: cairo and Pango, opened once, and one Pango font map (Pango's default one is made per
/// thread, and redraws come from any thread). Behind a lock: a font map is not to be used by two threads at once.
private struct CairoPainter: ~Copyable {
    static let shared = Mutex(CairoPainter())

    /// Made once, never freed (like Pango's default one).
    private var madeFontMap: OpaquePointer?

    func library() throws -> UnsafePointer<gstcam_cairo_library> {
        let library = gstcam_cairo_library()!
        guard library.pointee.loaded != 0 else {
            throw ScreenError("The window cannot draw its controls: libpangocairo-1.0.so.0 (cairo and Pango) cannot be loaded. "
                              + "Install it: sudo apt install libpangocairo-1.0-0")
        }
        return library
    }

    mutating func fontMap(_ library: UnsafePointer<gstcam_cairo_library>) throws -> OpaquePointer {
        if let madeFontMap { return madeFontMap }
        guard let fontMap = library.pointee.pango_cairo_font_map_new() else {
            throw ScreenError("The window cannot draw its controls: Pango made no font map")
        }
        madeFontMap = fontMap
        return fontMap
    }
}

/// One cairo image surface being drawn on: a drawing's items become cairo and Pango calls here.
private final class CairoCanvas {
    private let c: gstcam_cairo_library
    private let surface: OpaquePointer
    private let cr: OpaquePointer
    private let pango: OpaquePointer
    private let width: Int
    private let height: Int

    init(library: UnsafePointer<gstcam_cairo_library>, width: Int, height: Int, fontMap: OpaquePointer) throws {
        c = library.pointee
        self.width = width
        self.height = height
        guard let surface = c.image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw ScreenError("The window cannot draw its controls: cairo made no \(width)x\(height) surface")
        }
        guard let cr = c.create(surface) else {
            c.surface_destroy(surface)
            throw ScreenError("The window cannot draw its controls: cairo made no drawing context")
        }
        guard let pango = c.pango_font_map_create_context(fontMap) else {
            c.destroy(cr)
            c.surface_destroy(surface)
            throw ScreenError("The window cannot draw its controls: Pango made no context")
        }
        self.surface = surface
        self.cr = cr
        self.pango = pango
    }

    deinit {
        c.g_object_unref(UnsafeMutableRawPointer(pango))
        c.destroy(cr)
        c.surface_destroy(surface)
    }

    func translate(x: Double, y: Double) { c.translate(cr, x, y) }

    /// The surface's pixels: cairo's ARGB32 is premultiplied, and in a little-endian machine's memory B, G, R, A.
    func picture(firstRow: Int, pictureHeight: Int) throws -> FrameOverlay.Picture {
        c.surface_flush(surface)
        guard c.status(cr) == CAIRO_STATUS_SUCCESS, let data = c.image_surface_get_data(surface) else {
            throw ScreenError("The window cannot draw its controls: cairo failed (status \(c.status(cr).rawValue))")
        }
        let stride = Int(c.image_surface_get_stride(surface))
        guard let picture = FrameOverlay.Picture(premultipliedBGRA: UnsafeRawBufferPointer(start: data, count: stride * height),
                                                 width: width, height: height, bytesPerRow: stride, firstRow: firstRow,
                                                 pictureHeight: pictureHeight) else {
            throw ScreenError("The window cannot draw its controls: cairo's surface is smaller than \(width)x\(height)")
        }
        return picture
    }

    func draw(_ item: Drawing.Item) {
        switch item {
        case let .shape(shape, fill, stroke):
            path(shape)
            if let fill {
                source(fill)
                if stroke == nil { c.fill(cr) } else { c.fill_preserve(cr) }
            }
            if let stroke {
                source(stroke.colour)
                c.set_line_width(cr, stroke.width)
                c.set_line_join(cr, stroke.roundJoins ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_MITER)
                c.stroke(cr)
            }
            c.new_path(cr)
        case let .text(text):
            show(text)
        case let .image(thumbnail, x, y, width, height):
            image(thumbnail, x: x, y: y, width: width, height: height)
        case let .group(items, opacity):
            // cairo makes the group's picture as large as the clip: clipped to what its items cover, a dimmed button
            // costs its own size, not the whole surface's (0.7 MB for a 1280-wide control bar).
            c.save(cr)
            if let box = Self.union(items.map(bounds)) {
                c.rectangle(cr, box.x0.rounded(.down) - 1, box.y0.rounded(.down) - 1,
                            box.x1.rounded(.up) - box.x0.rounded(.down) + 2, box.y1.rounded(.up) - box.y0.rounded(.down) + 2)
                c.clip(cr)
            }
            c.push_group(cr)
            for item in items { draw(item) }
            c.pop_group_to_source(cr)
            c.paint_with_alpha(cr, opacity)
            c.restore(cr)
        }
    }

    private typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)

    /// The box `item` paints in, strokes and text ink included.
    private func bounds(_ item: Drawing.Item) -> Box? {
        switch item {
        case let .shape(shape, _, stroke):
            path(shape)
            var box: Box = (0, 0, 0, 0)
            c.path_extents(cr, &box.x0, &box.y0, &box.x1, &box.y1)
            c.new_path(cr)
            let margin = (stroke?.width ?? 0) / 2
            return (box.x0 - margin, box.y0 - margin, box.x1 + margin, box.y1 + margin)
        case let .text(text):
            guard let placed = layout(text) else { return nil }
            defer { c.g_object_unref(UnsafeMutableRawPointer(placed.layout)) }
            var ink = gstcam_pango_rectangle(), logical = gstcam_pango_rectangle()
            c.pango_layout_get_pixel_extents(placed.layout, &ink, &logical)
            let x0 = Double(min(ink.x, logical.x)), y0 = Double(min(ink.y, logical.y))
            let x1 = Double(max(ink.x + ink.width, logical.x + logical.width))
            let y1 = Double(max(ink.y + ink.height, logical.y + logical.height))
            return (placed.left + x0, placed.top + y0, placed.left + x1, placed.top + y1)
        case let .image(_, x, y, width, height):
            return (x, y, x + width, y + height)
        case let .group(items, _):
            return Self.union(items.map(bounds))
        }
    }

    /// The box around all of `boxes`; nil when any is unknown (then nothing may be clipped away).
    private static func union(_ boxes: [Box?]) -> Box? {
        guard var all = boxes.first ?? nil else { return nil }
        for box in boxes.dropFirst() {
            guard let box else { return nil }
            all = (min(all.x0, box.x0), min(all.y0, box.y0), max(all.x1, box.x1), max(all.y1, box.y1))
        }
        return all
    }

    private func source(_ colour: Drawing.Colour) { c.set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha) }

    private func path(_ shape: Drawing.Shape) {
        c.new_path(cr)
        switch shape {
        case let .rectangle(x, y, width, height, radius) where radius > 0:
            let r = min(radius, width / 2, height / 2)
            c.new_sub_path(cr)
            c.arc(cr, x + width - r, y + r, r, -Double.pi / 2, 0)
            c.arc(cr, x + width - r, y + height - r, r, 0, Double.pi / 2)
            c.arc(cr, x + r, y + height - r, r, Double.pi / 2, Double.pi)
            c.arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
            c.close_path(cr)
        case let .rectangle(x, y, width, height, _):
            c.rectangle(cr, x, y, width, height)
        case let .circle(centre, radius):
            c.new_sub_path(cr)
            c.arc(cr, centre.x, centre.y, radius, 0, 2 * Double.pi)
            c.close_path(cr)
        case let .polygon(points), let .polyline(points):
            for (index, point) in points.enumerated() {
                if index == 0 { c.move_to(cr, point.x, point.y) } else { c.line_to(cr, point.x, point.y) }
            }
            if case .polygon = shape { c.close_path(cr) }
        case let .arc(centre, radius, from, to):
            c.new_sub_path(cr)
            c.arc(cr, centre.x, centre.y, radius, from, to)
        }
    }

    private func show(_ text: Drawing.Text) {
        guard let placed = layout(text) else { return }
        defer { c.g_object_unref(UnsafeMutableRawPointer(placed.layout)) }
        source(text.runs.first?.colour ?? .white)
        c.move_to(cr, placed.left, placed.top)
        c.pango_cairo_show_layout(cr, placed.layout)
        c.new_path(cr)
    }

    /// `text` laid out by Pango (the caller unrefs the layout), and where the layout's top left corner goes.
    private func layout(_ text: Drawing.Text) -> (layout: OpaquePointer, left: Double, top: Double)? {
        c.pango_cairo_update_context(cr, pango)
        guard let layout = c.pango_layout_new(pango) else { return nil }
        if let font = c.pango_font_description_from_string(text.bold ? "Sans Bold" : "Sans") {
            c.pango_font_description_set_absolute_size(font, text.size * 1024)  // PANGO_SCALE
            c.pango_layout_set_font_description(layout, font)
            c.pango_font_description_free(font)
        }
        c.pango_layout_set_markup(layout, text.markup, -1)
        var logical = gstcam_pango_rectangle()
        c.pango_layout_get_pixel_extents(layout, nil, &logical)
        let baseline = Double(c.pango_layout_get_baseline(layout)) / 1024
        let left = text.centred ? text.x - Double(logical.width) / 2 : text.x
        return (layout, left, text.y - baseline)
    }

    /// The thumbnail scaled to cover the box, centred and cropped to it (SVG's "xMidYMid slice").
    private func image(_ thumbnail: PhotoThumbnail, x: Double, y: Double, width: Double, height: Double) {
        guard thumbnail.width > 0, thumbnail.height > 0, thumbnail.rgb.count >= thumbnail.width * thumbnail.height * 3 else { return }
        // cairo's RGB24: 32 bits a pixel, in a little-endian machine's memory B, G, R, unused.
        var pixels = [UInt8](repeating: 0xFF, count: thumbnail.width * thumbnail.height * 4)
        for index in 0..<(thumbnail.width * thumbnail.height) {
            pixels[index * 4] = thumbnail.rgb[index * 3 + 2]
            pixels[index * 4 + 1] = thumbnail.rgb[index * 3 + 1]
            pixels[index * 4 + 2] = thumbnail.rgb[index * 3]
        }
        pixels.withUnsafeMutableBufferPointer { pixels in
            guard let image = c.image_surface_create_for_data(pixels.baseAddress, CAIRO_FORMAT_RGB24, Int32(thumbnail.width),
                                                              Int32(thumbnail.height), Int32(thumbnail.width * 4)) else { return }
            defer { c.surface_destroy(image) }
            let scale = max(width / Double(thumbnail.width), height / Double(thumbnail.height))
            c.save(cr)
            c.rectangle(cr, x, y, width, height)
            c.clip(cr)
            c.translate(cr, x + (width - Double(thumbnail.width) * scale) / 2, y + (height - Double(thumbnail.height) * scale) / 2)
            c.scale(cr, scale, scale)
            c.set_source_surface(cr, image, 0, 0)
            c.paint(cr)
            c.restore(cr)
        }
    }
}
