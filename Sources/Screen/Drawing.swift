import CGStreamer

/// A picture described as shapes, text and images in the pixels of a `width` × `height` canvas: what the window's
/// control bar, status line, error view and a code's highlight look like. cairo and Pango make it into pixels
/// (Drawing+Cairo.swift) only when it changes; each frame then only blends those pixels (FrameOverlay).
/// Equatable, so a redraw that would draw the same is skipped.
struct Drawing: Sendable, Equatable {
    var width: Int
    var height: Int
    var items: [Item] = []

    init(width: Int, height: Int, items: [Item] = []) {
        self.width = width
        self.height = height
        self.items = items
    }

    struct Colour: Sendable, Equatable {
        var red: Double
        var green: Double
        var blue: Double
        var alpha = 1.0

        /// From `0xRRGGBB`.
        init(_ rgb: UInt32, alpha: Double = 1) {
            red = Double((rgb >> 16) & 0xFF) / 255
            green = Double((rgb >> 8) & 0xFF) / 255
            blue = Double(rgb & 0xFF) / 255
            self.alpha = alpha
        }

        func opacity(_ alpha: Double) -> Colour {
            var colour = self
            colour.alpha = alpha
            return colour
        }

        /// `#RRGGBB`, as Pango's markup takes a colour.
        var hex: String {
            let digits = Array("0123456789ABCDEF")
            return "#" + [red, green, blue].map { channel in
                let byte = Int((min(1, max(0, channel)) * 255).rounded())
                return String([digits[byte >> 4], digits[byte & 15]])
            }.joined()
        }

        static let white = Colour(0xFFFFFF)
        static let black = Colour(0x000000)
        /// The yellow of a setting that is on (the flash, the torch, the self-timer).
        static let yellow = Colour(0xFFD60A)
    }

    struct Point: Sendable, Equatable {
        var x: Double
        var y: Double

        init(_ x: Double, _ y: Double) {
            self.x = x
            self.y = y
        }
    }

    enum Shape: Sendable, Equatable {
        case rectangle(x: Double, y: Double, width: Double, height: Double, cornerRadius: Double = 0)
        case circle(centre: Point, radius: Double)
        /// Closed.
        case polygon([Point])
        /// Open.
        case polyline([Point])
        /// Part of a circle, from angle `from` to `to` in radians, clockwise on the screen (0: to the right).
        case arc(centre: Point, radius: Double, from: Double, to: Double)
    }

    struct Stroke: Sendable, Equatable {
        var colour: Colour
        var width: Double
        var roundJoins = false
    }

    /// One line of text whose baseline starts at (`x`, `y`), or is centred on `x` (`centred`).
    struct Text: Sendable, Equatable {
        /// Its parts and their colours (the status line's recording dot is red).
        struct Run: Sendable, Equatable {
            var text: String
            var colour: Colour
        }

        var runs: [Run]
        var x: Double
        var y: Double
        /// In pixels.
        var size: Double
        var bold = false
        var centred = false

        init(_ text: String, x: Double, y: Double, size: Double, colour: Colour = .white, bold: Bool = false, centred: Bool = false) {
            self.init(runs: [Run(text: text, colour: colour)], x: x, y: y, size: size, bold: bold, centred: centred)
        }

        init(runs: [Run], x: Double, y: Double, size: Double, bold: Bool = false, centred: Bool = false) {
            self.runs = runs
            self.x = x
            self.y = y
            self.size = size
            self.bold = bold
            self.centred = centred
        }

        /// The runs as Pango markup: each in its colour, escaped by GLib's `g_markup_escape_text`.
        var markup: String {
            runs.map { run in
                let escaped = g_markup_escape_text(run.text, -1).map { escaped in
                    defer { g_free(escaped) }
                    return String(cString: escaped)
                } ?? ""
                return "<span foreground=\"\(run.colour.hex)\">\(escaped)</span>"
            }.joined()
        }
    }

    indirect enum Item: Sendable, Equatable {
        case shape(Shape, fill: Colour?, stroke: Stroke? = nil)
        case text(Text)
        /// A thumbnail covering the box (cropped to its aspect ratio, centred).
        case image(PhotoThumbnail, x: Double, y: Double, width: Double, height: Double)
        /// Items drawn together, then shown `opacity` opaque (a dimmed button).
        case group([Item], opacity: Double)
    }
}
