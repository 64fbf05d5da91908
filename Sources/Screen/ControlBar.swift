import Glibc
import Controls
import Session

/// The window's control bar, as camera apps have it: a band along the bottom of the picture (above the status
/// line) with the shutter button in the middle, flash mode, torch and self-timer on its left, camera switch and the
/// last photo's thumbnail on its right. This is the model — where each button is, which one a pointer is on, and
/// the SVG that draws it (blended where frames leave `control-bar` in pipelines/display.branch) — so the drawing and the
/// hit-testing share one layout.
///
/// Positions are in the pixels of the frame entering the window branch; the overlay scales the SVG to the picture
/// as shown (fit-to-frame) and the navigation events come back divided by the same frame size, so a layout made
/// for the frame holds at every window size.
struct ControlBar: Sendable, Equatable {
    enum Button: String, Sendable, CaseIterable {
        case flash, torch, timer, shutter, switchCamera, thumbnail

        /// The key whose action the button performs: a click on a button is that key (CameraScreen handles it,
        /// so the self-timer, Esc and the waiting screen treat both alike).
        var key: String {
            switch self {
            case .shutter: "space"
            case .switchCamera: "c"
            case .flash: "l"
            case .torch: "t"
            case .timer: "T"
            // Opens the photo viewer: the viewer's key. Until a key `g` has an action this click does nothing.
            case .thumbnail: Self.openViewerKey
            }
        }

        /// The key that opens the photo viewer (the thumbnail's click).
        static let openViewerKey = "g"
    }

    /// What the buttons show.
    struct Settings: Sendable, Equatable {
        var flash = FlashMode.off
        /// nil: the camera has no torch (the button is dimmed).
        var torch: Bool?
        /// The self-timer's seconds (0: off).
        var timer = 0
        /// Whether another usable camera exists (else the switch button is hidden).
        var canSwitch = false
    }

    var settings = Settings()
    var thumbnail: PhotoThumbnail?
    /// The button held down now (drawn pressed).
    var pressed: Button?
    /// `h` hides the bar (its buttons then take no clicks).
    var hidden = false

    /// A button's place: its centre and radius (the thumbnail is a box of that half-width).
    struct Place: Equatable {
        var x: Double
        var y: Double
        var radius: Double
    }

    /// The bar's layout for a `width` × `height` frame: designed at 640×480 and scaled by the smaller ratio.
    struct Layout: Equatable {
        let width: Double
        let height: Double
        let scale: Double
        /// The band's top and bottom (the status line stays below it).
        let top: Double
        let bottom: Double
        let places: [Button: Place]

        init(width: Int, height: Int) {
            self.width = Double(max(1, width))
            self.height = Double(max(1, height))
            let scale = min(self.width / 640, self.height / 480)
            self.scale = scale
            // Above the status line (its shaded box is about 30 pixels high at 480 rows).
            bottom = self.height - 48 * scale
            top = bottom - 84 * scale
            let y = (bottom - 42 * scale), middle = self.width / 2
            func place(_ offset: Double, _ radius: Double) -> Place { Place(x: middle + offset * scale, y: y, radius: radius * scale) }
            places = [.flash: place(-250, 25), .torch: place(-180, 25), .timer: place(-110, 25), .shutter: place(0, 34),
                      .switchCamera: place(110, 25), .thumbnail: place(210, 36)]
        }

        /// Whether a point (in frame pixels) is on the band.
        func isOnBar(x: Double, y: Double) -> Bool { y >= top && y <= bottom && x >= 0 && x <= width }

        /// The button at a point (in frame pixels), if any.
        func button(atX x: Double, y: Double) -> Button? {
            places.first { button, place in
                let dx = x - place.x, dy = y - place.y
                return button == .thumbnail ? abs(dx) <= place.radius && abs(dy) <= place.radius * 0.75
                                            : dx * dx + dy * dy <= place.radius * place.radius * 1.2
            }?.key
        }
    }

    /// What a pointer at a point (fractions of the picture) meets: nothing of the bar, the band between buttons, or
    /// a button. Hidden buttons (the bar with `h`, the switch button with one camera) are band.
    enum Target: Equatable { case picture, band, button(Button) }

    func target(at point: NormalizedPoint, width: Int, height: Int) -> Target {
        guard !hidden else { return .picture }
        let layout = Layout(width: width, height: height)
        let x = point.x * layout.width, y = point.y * layout.height
        guard layout.isOnBar(x: x, y: y) else { return .picture }
        guard let button = layout.button(atX: x, y: y), button != .switchCamera || settings.canSwitch else { return .band }
        return .button(button)
    }

    // MARK: Drawing

    /// The drawing for a `width` × `height` frame; `whiteout` (0…1) is the shutter's white flash over the picture.
    func drawing(width: Int, height: Int, whiteout: Double = 0) -> Drawing {
        var drawing = Drawing(width: width, height: height)
        if !hidden { drawing.items += bar(Layout(width: width, height: height)) }
        if whiteout > 0 {
            drawing.items.append(.shape(.rectangle(x: 0, y: 0, width: Double(width), height: Double(height)),
                                        fill: Drawing.Colour.white.opacity(whiteout)))
        }
        return drawing
    }

    private func bar(_ layout: Layout) -> [Drawing.Item] {
        let s = layout.scale
        var items: [Drawing.Item] = [.shape(.rectangle(x: 0, y: layout.top, width: layout.width, height: layout.bottom - layout.top),
                                            fill: Drawing.Colour.black.opacity(0.35))]
        for button in Button.allCases {
            guard let place = layout.places[button] else { continue }
            let pressed = self.pressed == button
            let (x, y, r) = (place.x, place.y, place.radius)
            let centre = Drawing.Point(x, y)
            switch button {
            case .shutter:
                items.append(.shape(.circle(centre: centre, radius: r - 3 * s), fill: nil, stroke: .init(colour: .white, width: 5 * s)))
                items.append(.shape(.circle(centre: centre, radius: r - (pressed ? 11 : 9) * s),
                                    fill: pressed ? Drawing.Colour(0xB4B4B4) : .white))
                continue
            case .thumbnail:
                let w = r * 2, h = r * 1.5
                let (left, top) = (x - r, y - h / 2)
                if let thumbnail {
                    items.append(.image(thumbnail, x: left, y: top, width: w, height: h))
                } else {
                    items.append(.shape(.rectangle(x: left, y: top, width: w, height: h), fill: Drawing.Colour(0x303030)))
                }
                items.append(.shape(.rectangle(x: left, y: top, width: w, height: h, cornerRadius: 4 * s),
                                    fill: pressed ? Drawing.Colour.white.opacity(0.4) : nil, stroke: .init(colour: .white, width: 2 * s)))
                continue
            case .switchCamera where !settings.canSwitch:
                continue
            default:
                break
            }
            var parts = [Drawing.Item.shape(.circle(centre: centre, radius: r),
                                            fill: pressed ? Drawing.Colour.white.opacity(0.6) : Drawing.Colour.black.opacity(0.45),
                                            stroke: .init(colour: .white, width: 2 * s))]
            parts += icon(button, x: x, y: y - 5 * s, scale: s)
            if let label = label(button) {
                parts.append(.text(Drawing.Text(label, x: x, y: y + 15 * s, size: 10 * s, bold: true, centred: true)))
            }
            // Dimmed as one: the ring does not show through the icon.
            let dimmed = button == .torch && settings.torch == nil
            if dimmed { items.append(.group(parts, opacity: 0.4)) } else { items += parts }
        }
        return items
    }

    /// The word under a button's icon: the setting it is at.
    private func label(_ button: Button) -> String? {
        switch button {
        case .flash: settings.flash.title
        case .torch: settings.torch == true ? "On" : "Off"
        case .timer: settings.timer == 0 ? "Off" : "\(settings.timer) s"
        default: nil
        }
    }

    /// A small drawing centred at (x, y), about 16 units of `scale` across.
    private func icon(_ button: Button, x: Double, y: Double, scale s: Double) -> [Drawing.Item] {
        func p(_ dx: Double, _ dy: Double) -> Drawing.Point { Drawing.Point(x + dx * s, y + dy * s) }
        switch button {
        case .flash:
            let colour: Drawing.Colour = settings.flash == .off ? .white : .yellow
            return [.shape(.polygon([p(2, -9), p(-5, 1), p(0, 1), p(-2, 9), p(5, -1), p(0, -1)]), fill: colour)]
        case .torch:
            let colour: Drawing.Colour = settings.torch == true ? .yellow : .white
            return [.shape(.polygon([p(-6, -8), p(6, -8), p(3, -2), p(3, 8), p(-3, 8), p(-3, -2)]), fill: colour)]
        case .timer:
            let colour: Drawing.Colour = settings.timer > 0 ? .yellow : .white
            return [.shape(.circle(centre: p(0, 0), radius: 7 * s), fill: nil, stroke: .init(colour: colour, width: 2 * s)),
                    .shape(.polyline([p(0, -4), p(0, 0), p(3, 2)]), fill: nil, stroke: .init(colour: colour, width: 1.6 * s))]
        case .switchCamera:
            // Two arrows chasing each other round a circle: a half circle clockwise over the top, one under the bottom.
            let stroke = Drawing.Stroke(colour: .white, width: 2 * s)
            return [.shape(Self.halfCircle(from: p(-9, 3), to: p(7, -6)), fill: nil, stroke: stroke),
                    .shape(.polygon([p(10, -9), p(9, -1), p(3, -5)]), fill: .white),
                    .shape(Self.halfCircle(from: p(9, 3), to: p(-7, 12)), fill: nil, stroke: stroke),
                    .shape(.polygon([p(-10, 15), p(-9, 7), p(-3, 11)]), fill: .white)]
        case .shutter, .thumbnail:
            return []
        }
    }

    /// The half circle from `start` clockwise to `end`, the ends of its diameter.
    static func halfCircle(from start: Drawing.Point, to end: Drawing.Point) -> Drawing.Shape {
        let centre = Drawing.Point((start.x + end.x) / 2, (start.y + end.y) / 2)
        let from = atan2(start.y - centre.y, start.x - centre.x)
        return .arc(centre: centre, radius: ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y)).squareRoot() / 2,
                    from: from, to: from + Double.pi)
    }
}
