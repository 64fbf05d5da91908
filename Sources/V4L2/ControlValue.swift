/// A control's value: a number for integer, boolean, menu, bitmask and button controls (a menu's value is the
/// item's index), text for string controls, a rectangle for the UVC region of interest, the elements of an
/// array control.
public enum ControlValue: Sendable, Hashable, CustomStringConvertible {
    case integer(Int64)
    case string(String)
    case rectangle(ControlRectangle)
    /// U8/U16/U32 array controls.
    case array(ControlArray)
    /// Area controls (a width and a height).
    case area(ControlArea)
    /// Payloads the library does not interpret (arrays, codec structures), as raw bytes.
    case bytes([UInt8])

    /// The number, for the integer-like kinds.
    public var integer: Int64? {
        if case let .integer(value) = self { return value }
        return nil
    }

    public var description: String {
        switch self {
        case let .integer(value): String(value)
        case let .string(text): text
        case let .rectangle(rectangle): rectangle.description
        case let .array(array): array.description
        case let .area(area): area.description
        case let .bytes(bytes): bytes.map { String($0) }.joined(separator: " ")
        }
    }
}
