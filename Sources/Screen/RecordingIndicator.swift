import GStreamer

/// The red dot of a recording on the status line ("● REC 0:12 · …", which `CameraOperator.statusLine()` puts
/// first while the session records): red in the window's text overlay (Pango markup) and in the terminal.
enum RecordingIndicator {
    static let dot = "●"
    /// The dot's red (as phones and camcorders show it), for Pango and as a 24-bit terminal colour.
    static let pangoRed = "#FF3B30"
    static let terminalRed = "38;2;255;59;48"

    /// Puts `text` into a textoverlay, whose `text` Pango reads as markup: with a red dot while recording.
    static func show(_ text: String, in overlay: Element?) {
        overlay?.set("text", windowMarkup(text) ?? text)
    }

    /// Pango markup for a status line with the recording dot; nil for one without.
    static func windowMarkup(_ text: String) -> String? {
        guard let range = text.range(of: dot + " REC") else { return nil }
        return escaped(String(text[..<range.lowerBound])) + "<span foreground=\"\(pangoRed)\">\(dot)</span>"
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
