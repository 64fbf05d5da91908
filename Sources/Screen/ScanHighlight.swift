import Controls

/// A code just read by the screen's scan mode (`s`), highlighted in the window for `duration`: its outline in green
/// (CodeScanner finds it with libzbar; where it could not, a green frame round the whole picture instead), and a
/// card above the control bar with the code's type and text. An SVG body for the control bar's overlay, in the
/// frame's pixels like ControlBar.
struct ScanHighlight: Sendable, Equatable {
    static let duration = Duration.seconds(2)
    static let green = "#30D158"

    var type: String
    var text: String
    /// The code's corners, 0…1 of the picture (fewer than 3: not known).
    var outline: [NormalizedPoint] = []

    func svgBody(width: Int, height: Int) -> String {
        let scale = min(Double(width) / 640, Double(height) / 480)
        func n(_ value: Double) -> String { ControlBar.number(value) }
        let inset = 10 * scale, stroke = 8 * scale
        var body: String
        if outline.count >= 3 {
            let points = outline.map { "\(n($0.x * Double(width))),\(n($0.y * Double(height)))" }.joined(separator: " ")
            body = "<polygon points=\"\(points)\" fill=\"\(Self.green)\" fill-opacity=\"0.18\" stroke=\"\(Self.green)\" "
                + "stroke-width=\"\(n(6 * scale))\" stroke-linejoin=\"round\"/>"
        } else {
            body = "<rect x=\"\(n(inset))\" y=\"\(n(inset))\" width=\"\(n(Double(width) - 2 * inset))\" "
                + "height=\"\(n(Double(height) - 2 * inset))\" rx=\"\(n(18 * scale))\" fill=\"none\" stroke=\"\(Self.green)\" "
                + "stroke-width=\"\(n(stroke))\"/>"
        }
        // The card: one line of text, cut to what fits (Sans averages a little over half its size per character).
        let textSize = 20 * scale, typeSize = 13 * scale
        let cardWidth = Double(width) - 2 * 48 * scale
        let fits = max(8, Int((cardWidth - 32 * scale) / (textSize * 0.58)))
        let shown = text.count > fits ? String(text.prefix(fits - 1)) + "…" : text
        let cardHeight = 62 * scale, cardY = Double(height) * 0.6
        body += "<rect x=\"\(n(48 * scale))\" y=\"\(n(cardY))\" width=\"\(n(cardWidth))\" height=\"\(n(cardHeight))\" "
            + "rx=\"\(n(12 * scale))\" fill=\"#000000\" fill-opacity=\"0.72\" stroke=\"\(Self.green)\" stroke-width=\"\(n(3 * scale))\"/>"
        body += "<text x=\"\(n(Double(width) / 2))\" y=\"\(n(cardY + 20 * scale))\" font-family=\"Sans\" font-size=\"\(n(typeSize))\" "
            + "fill=\"\(Self.green)\" text-anchor=\"middle\">\(ErrorView.escaped(type))</text>"
        body += "<text x=\"\(n(Double(width) / 2))\" y=\"\(n(cardY + 48 * scale))\" font-family=\"Sans\" font-size=\"\(n(textSize))\" "
            + "font-weight=\"bold\" fill=\"white\" text-anchor=\"middle\">\(ErrorView.escaped(shown))</text>"
        return body
    }
}
