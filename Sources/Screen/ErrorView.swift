/// The window's full-window error view while the camera is gone (unplugged, no permission, busy): which camera,
/// what happened and the fix, large over the dark waiting picture, and that the preview comes back by itself. A drawing for
/// the control bar's overlay (which it replaces meanwhile), in the frame's pixels like ControlBar.
struct ErrorView: Sendable, Equatable {
    /// The camera: "USB Camera (/dev/video0)".
    var title: String
    /// The failure as the CLI says it (what, which device, the fix); wrapped to the picture's width.
    var detail: String
    /// How the screen comes back ("The preview resumes when … is back. q quits, c switches camera.").
    var footer: String

    func drawing(width: Int, height: Int) -> Drawing {
        let scale = min(Double(width) / 640, Double(height) / 480)
        let margin = 32 * scale
        let detailSize = 15 * scale, titleSize = 24 * scale
        // Sans at this size averages a little over half its size per character.
        let perLine = max(12, Int((Double(width) - 2 * margin) / (detailSize * 0.55)))
        let lines = Self.wrap(detail, width: perLine) + [""] + Self.wrap(footer, width: perLine)
        // No background of its own: it is drawn over the waiting picture (pipelines/waiting.pipeline), whose top line
        // keeps the screen's one-line message.
        var drawing = Drawing(width: width, height: height)
        // A warning sign above the title.
        let signY = Double(height) * 0.22, signX = Double(width) / 2, side = 30 * scale
        let dark = Drawing.Colour(0x202428)
        drawing.items.append(.shape(.polygon([Drawing.Point(signX, signY - side), Drawing.Point(signX + side, signY + side * 0.75),
                                              Drawing.Point(signX - side, signY + side * 0.75)]), fill: .yellow))
        drawing.items.append(.shape(.rectangle(x: signX - 2.5 * scale, y: signY - side * 0.45, width: 5 * scale, height: side * 0.75), fill: dark))
        drawing.items.append(.shape(.circle(centre: Drawing.Point(signX, signY + side * 0.5), radius: 3 * scale), fill: dark))
        var y = signY + side + titleSize * 1.6
        drawing.items.append(.text(Drawing.Text(title, x: Double(width) / 2, y: y, size: titleSize, bold: true, centred: true)))
        y += titleSize
        for line in lines {
            y += detailSize * 1.35
            drawing.items.append(.text(Drawing.Text(line, x: margin, y: y, size: detailSize)))
        }
        return drawing
    }

    /// Words into lines of at most `width` characters (a longer word stands alone); the text's own line breaks stay.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty, line.count + 1 + word.count > width {
                    lines.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line)
        }
        return lines
    }
}
