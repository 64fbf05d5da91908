import Foundation
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

    /// The SVG for a `width` × `height` frame; `whiteout` (0…1) is the shutter's white flash over the picture.
    func svg(width: Int, height: Int, whiteout: Double = 0) -> String {
        let layout = Layout(width: width, height: height)
        var body = ""
        if !hidden { body += bar(layout) }
        if whiteout > 0 {
            body += "<rect width=\"\(width)\" height=\"\(height)\" fill=\"white\" fill-opacity=\"\(Self.number(whiteout))\"/>"
        }
        return Self.document(width: width, height: height, body: body)
    }

    static func document(width: Int, height: Int, body: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"\(width)\" "
            + "height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\(body)</svg>"
    }

    /// `value` with two decimals ("12.50"), as the overlays' SVG writes coordinates and sizes, rounded as
    /// `String(format: "%.2f")` does (ties to even). Not through `String(format:)`, which goes through NSString:
    /// a control bar or status line has 50–150 numbers, drawn again on each change.
    static func number(_ value: Double) -> String {
        let hundredths = (value * 100).rounded(.toNearestOrEven)
        guard hundredths.magnitude < 1e15 else { return value.isFinite ? "\(value)" : "0.00" }
        let whole = Int(hundredths.magnitude)
        let cents = whole % 100
        return "\(hundredths < 0 ? "-" : "")\(whole / 100).\(cents < 10 ? "0" : "")\(cents)"
    }

    private func bar(_ layout: Layout) -> String {
        let s = layout.scale
        func n(_ value: Double) -> String { Self.number(value) }
        var svg = "<rect x=\"0\" y=\"\(n(layout.top))\" width=\"\(n(layout.width))\" height=\"\(n(layout.bottom - layout.top))\" "
            + "fill=\"black\" fill-opacity=\"0.35\"/>"
        for button in Button.allCases {
            guard let place = layout.places[button] else { continue }
            let pressed = self.pressed == button
            let (x, y, r) = (place.x, place.y, place.radius)
            switch button {
            case .shutter:
                svg += "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(r - 3 * s))\" fill=\"none\" stroke=\"white\" stroke-width=\"\(n(5 * s))\"/>"
                svg += "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(r - (pressed ? 11 : 9) * s))\" fill=\"\(pressed ? "#b4b4b4" : "white")\"/>"
                continue
            case .thumbnail:
                let w = r * 2, h = r * 1.5
                let (left, top) = (x - r, y - h / 2)
                if let thumbnail {
                    svg += "<image x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(w))\" height=\"\(n(h))\" preserveAspectRatio=\"xMidYMid slice\" "
                        + "xlink:href=\"\(thumbnail.dataURL)\"/>"
                } else {
                    svg += "<rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"#303030\"/>"
                }
                svg += "<rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(w))\" height=\"\(n(h))\" rx=\"\(n(4 * s))\" fill=\"\(pressed ? "white" : "none")\" "
                    + "fill-opacity=\"0.4\" stroke=\"white\" stroke-width=\"\(n(2 * s))\"/>"
                continue
            case .switchCamera where !settings.canSwitch:
                continue
            default:
                break
            }
            let dimmed = button == .torch && settings.torch == nil
            svg += "<g opacity=\"\(dimmed ? "0.4" : "1")\">"
            svg += "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(r))\" fill=\"\(pressed ? "white" : "black")\" fill-opacity=\"\(pressed ? "0.6" : "0.45")\" "
                + "stroke=\"white\" stroke-width=\"\(n(2 * s))\"/>"
            svg += icon(button, x: x, y: y - 5 * s, scale: s)
            if let label = label(button) {
                svg += "<text x=\"\(n(x))\" y=\"\(n(y + 15 * s))\" font-family=\"Sans\" font-size=\"\(n(10 * s))\" font-weight=\"bold\" fill=\"white\" "
                    + "text-anchor=\"middle\">\(label)</text>"
            }
            svg += "</g>"
        }
        return svg
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

    private static let yellow = "#FFD60A"

    /// A small drawing centred at (x, y), about 16 units of `scale` across.
    private func icon(_ button: Button, x: Double, y: Double, scale s: Double) -> String {
        func p(_ dx: Double, _ dy: Double) -> String { "\(Self.number(x + dx * s)),\(Self.number(y + dy * s))" }
        let n = Self.number
        switch button {
        case .flash:
            let colour = settings.flash == .off ? "white" : Self.yellow
            return "<polygon points=\"\(p(2, -9)) \(p(-5, 1)) \(p(0, 1)) \(p(-2, 9)) \(p(5, -1)) \(p(0, -1))\" fill=\"\(colour)\"/>"
        case .torch:
            let colour = settings.torch == true ? Self.yellow : "white"
            return "<polygon points=\"\(p(-6, -8)) \(p(6, -8)) \(p(3, -2)) \(p(3, 8)) \(p(-3, 8)) \(p(-3, -2))\" fill=\"\(colour)\"/>"
        case .timer:
            let colour = settings.timer > 0 ? Self.yellow : "white"
            return "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(7 * s))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(n(2 * s))\"/>"
                + "<polyline points=\"\(p(0, -4)) \(p(0, 0)) \(p(3, 2))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(n(1.6 * s))\"/>"
        case .switchCamera:
            // Two arrows chasing each other round a circle.
            return "<path d=\"M \(p(-9, 3)) A \(n(9 * s)) \(n(9 * s)) 0 0 1 \(p(7, -6))\" fill=\"none\" stroke=\"white\" stroke-width=\"\(n(2 * s))\"/>"
                + "<polygon points=\"\(p(10, -9)) \(p(9, -1)) \(p(3, -5))\" fill=\"white\"/>"
                + "<path d=\"M \(p(9, 3)) A \(n(9 * s)) \(n(9 * s)) 0 0 1 \(p(-7, 12))\" fill=\"none\" stroke=\"white\" stroke-width=\"\(n(2 * s))\"/>"
                + "<polygon points=\"\(p(-10, 15)) \(p(-9, 7)) \(p(-3, 11))\" fill=\"white\"/>"
        case .shutter, .thumbnail:
            return ""
        }
    }
}
