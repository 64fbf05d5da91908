import Controls

/// A code just read by the screen's scan mode (`s`), highlighted in the window for `duration`: its outline in green
/// (CodeScanner finds it with libzbar; where it could not, a green frame round the whole picture instead), and a
/// card above the control bar with the code's type and text. Items for the control bar's overlay, in the frame's
/// pixels like ControlBar.
struct ScanHighlight: Sendable, Equatable {
    static let duration = Duration.seconds(2)
    static let green = Drawing.Colour(0x30D158)

    var type: String
    var text: String
    /// The code's corners, 0…1 of the picture (fewer than 3: not known).
    var outline: [NormalizedPoint] = []

    func items(width: Int, height: Int) -> [Drawing.Item] {
        let scale = min(Double(width) / 640, Double(height) / 480)
        let inset = 10 * scale, stroke = 8 * scale
        var items: [Drawing.Item]
        if outline.count >= 3 {
            let points = outline.map { Drawing.Point($0.x * Double(width), $0.y * Double(height)) }
            items = [.shape(.polygon(points), fill: Self.green.opacity(0.18), stroke: .init(colour: Self.green, width: 6 * scale, roundJoins: true))]
        } else {
            items = [.shape(.rectangle(x: inset, y: inset, width: Double(width) - 2 * inset, height: Double(height) - 2 * inset,
                                       cornerRadius: 18 * scale), fill: nil, stroke: .init(colour: Self.green, width: stroke))]
        }
        // The card: one line of text, cut to what fits (Sans averages a little over half its size per character).
        let textSize = 20 * scale, typeSize = 13 * scale
        let cardWidth = Double(width) - 2 * 48 * scale
        let fits = max(8, Int((cardWidth - 32 * scale) / (textSize * 0.58)))
        let shown = text.count > fits ? String(text.prefix(fits - 1)) + "…" : text
        let cardHeight = 62 * scale, cardY = Double(height) * 0.6
        items.append(.shape(.rectangle(x: 48 * scale, y: cardY, width: cardWidth, height: cardHeight, cornerRadius: 12 * scale),
                            fill: Drawing.Colour.black.opacity(0.72), stroke: .init(colour: Self.green, width: 3 * scale)))
        items.append(.text(Drawing.Text(type, x: Double(width) / 2, y: cardY + 20 * scale, size: typeSize, colour: Self.green, centred: true)))
        items.append(.text(Drawing.Text(shown, x: Double(width) / 2, y: cardY + 48 * scale, size: textSize, bold: true, centred: true)))
        return items
    }
}
