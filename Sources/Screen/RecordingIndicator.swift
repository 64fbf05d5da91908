/// The red dot of a recording on the status line ("● REC 0:12 · …", which `CameraOperator.statusLine()` puts
/// first while the session records): red in the window (SVG text, StatusLineOverlay) and in the terminal.
enum RecordingIndicator {
    static let dot = "●"
    /// The dot's red (as phones and camcorders show it), for SVG and as a 24-bit terminal colour.
    static let svgRed = "#FF3B30"
    static let terminalRed = "38;2;255;59;48"

    /// The status line as the content of an SVG `text` element: escaped, with the dot red while recording.
    static func svgText(_ text: String) -> String {
        guard let range = text.range(of: dot + " REC") else { return escaped(text) }
        return escaped(String(text[..<range.lowerBound])) + "<tspan fill=\"\(svgRed)\">\(dot)</tspan>"
            + escaped(String(text[text.index(after: range.lowerBound)...]))
    }

    /// A terminal status line (drawn in reverse video) with the dot in red on the line's own colours.
    static func terminalLine(_ line: String) -> String {
        guard let range = line.range(of: dot + " REC") else { return line }
        let redOn = "\u{1B}[27;\(terminalRed)m"  // reverse video off, so the dot's own colour shows
        return String(line[..<range.lowerBound]) + redOn + dot + "\u{1B}[39;7m" + String(line[line.index(after: range.lowerBound)...])
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
