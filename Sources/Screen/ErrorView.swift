/// The window's full-window error view while the camera is gone (unplugged, no permission, busy): which camera,
/// what happened and the fix, large over the dark waiting picture, and that the preview comes back by itself. An SVG for the
/// control bar's overlay (which it replaces meanwhile), in the frame's pixels like ControlBar.
struct ErrorView: Sendable, Equatable {
    /// The camera: "USB Camera (/dev/video0)".
    var title: String
    /// The failure as the CLI says it (what, which device, the fix); wrapped to the picture's width.
    var detail: String
    /// How the screen comes back ("The preview resumes when … is back. q quits, c switches camera.").
    var footer: String

    func svg(width: Int, height: Int) -> String {
        let scale = min(Double(width) / 640, Double(height) / 480)
        func n(_ value: Double) -> String { ControlBar.number(value) }
        let margin = 32 * scale
        let detailSize = 15 * scale, titleSize = 24 * scale
        // Sans at this size averages a little over half its size per character.
        let perLine = max(12, Int((Double(width) - 2 * margin) / (detailSize * 0.55)))
        let lines = Self.wrap(detail, width: perLine) + [""] + Self.wrap(footer, width: perLine)
        // No background of its own: it is drawn over the waiting picture (pipelines/waiting.pipeline), whose top line
        // keeps the screen's one-line message.
        var body = ""
        // A warning sign above the title.
        let signY = Double(height) * 0.22, signX = Double(width) / 2, side = 30 * scale
        body += "<polygon points=\"\(n(signX)),\(n(signY - side)) \(n(signX + side)),\(n(signY + side * 0.75)) \(n(signX - side)),\(n(signY + side * 0.75))\" "
            + "fill=\"#FFD60A\"/>"
        body += "<rect x=\"\(n(signX - 2.5 * scale))\" y=\"\(n(signY - side * 0.45))\" width=\"\(n(5 * scale))\" height=\"\(n(side * 0.75))\" fill=\"#202428\"/>"
        body += "<circle cx=\"\(n(signX))\" cy=\"\(n(signY + side * 0.5))\" r=\"\(n(3 * scale))\" fill=\"#202428\"/>"
        var y = signY + side + titleSize * 1.6
        body += text(title, x: Double(width) / 2, y: y, size: titleSize, weight: "bold", anchor: "middle")
        y += titleSize
        for line in lines {
            y += detailSize * 1.35
            body += text(line, x: margin, y: y, size: detailSize, weight: "normal", anchor: "start")
        }
        return ControlBar.document(width: width, height: height, body: body)
    }

    private func text(_ string: String, x: Double, y: Double, size: Double, weight: String, anchor: String) -> String {
        "<text x=\"\(ControlBar.number(x))\" y=\"\(ControlBar.number(y))\" font-family=\"Sans\" font-size=\"\(ControlBar.number(size))\" "
            + "font-weight=\"\(weight)\" fill=\"white\" text-anchor=\"\(anchor)\">\(Self.escaped(string))</text>"
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

    /// Text as SVG character data.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
