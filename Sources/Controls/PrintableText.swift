/// Text from a driver or a command line made safe for a terminal: control characters (which could move the
/// cursor, change colours or hide text) are shown as escapes instead of being printed raw.
public enum PrintableText {
    /// "bri\u{1B}[31m" → "bri\e[31m"; tab, newline and carriage return become \t \n \r, other C0/C1 controls
    /// and DEL \xNN / \u{NNNN}; a backslash stays as it is.
    public static func escaping(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09: result += "\\t"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x1B: result += "\\e"
            case 0x00..<0x20, 0x7F: result += "\\x" + hex(scalar.value, digits: 2)
            case 0x80..<0xA0, 0x2028, 0x2029: result += "\\u{" + hex(scalar.value, digits: 4) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
