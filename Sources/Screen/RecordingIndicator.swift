import LinuxSystem

/// The red dot of a recording on the status line ("● REC 0:12 · …", which `CameraOperator.statusLine()` puts
/// first while the session records): red in the window (a run of the status line's text, StatusLineOverlay) and in
/// the terminal.
enum RecordingIndicator {
    static let dot = "●"
    /// The dot's red (as phones and camcorders show it), for the window and as a 24-bit terminal colour.
    static let red = Drawing.Colour(0xFF3B30)
    static let terminalRed = "38;2;255;59;48"

    /// The status line as runs of text for the window: white, with the dot red while recording.
    static func runs(_ text: String) -> [Drawing.Text.Run] {
        guard let range = text.firstRange(ofText: dot + " REC") else { return [.init(text: text, colour: .white)] }
        return [.init(text: String(text[..<range.lowerBound]), colour: .white), .init(text: dot, colour: red),
                .init(text: String(text[text.index(after: range.lowerBound)...]), colour: .white)]
    }

    /// A terminal status line (drawn in reverse video) with the dot in red on the line's own colours.
    static func terminalLine(_ line: String) -> String {
        guard let range = line.firstRange(ofText: dot + " REC") else { return line }
        let redOn = "\u{1B}[27;\(terminalRed)m"  // reverse video off, so the dot's own colour shows
        return String(line[..<range.lowerBound]) + redOn + dot + "\u{1B}[39;7m" + String(line[line.index(after: range.lowerBound)...])
    }
}
