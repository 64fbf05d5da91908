import V4L2
/// One V4L2 control of a camera, as `CameraControls` lists it: what v4l2-ctl -L shows, plus the class heading.
public struct CameraControl: Sendable, Hashable {
    /// The name v4l2-ctl prints and `gstcam get/set` accept, e.g. "focus_automatic_continuous".
    public var name: String
    /// The driver's label, e.g. "Focus, Automatic Continuous".
    public var label: String
    public var id: UInt32
    public var type: ControlType
    public var minimum: Int64
    public var maximum: Int64
    public var step: UInt64
    public var defaultValue: Int64
    public var flags: ControlFlags
    /// The current value; nil for buttons, class headings and write-only controls.
    public var value: ControlValue?
    /// The items of a menu or integer-menu control.
    public var menu: [ControlMenuItem]
    /// The class heading the control belongs to ("User Controls", "Camera Controls"), when the driver has one.
    public var className: String?
    /// The dimensions of an array control ([8, 16] for an 8×16 matrix); empty for a single value.
    public var dimensions: [Int]

    /// Whether the value is an array of numbers (U8/U16/U32 elements), each in `minimum...maximum`.
    public var isArray: Bool { ControlArray.elementWidth(of: type) != nil }

    /// How many elements an array control holds (1 for a single value).
    public var elementCount: Int { dimensions.reduce(1, *) }

    /// The menu item selected by the current value.
    public var selectedMenuItem: ControlMenuItem? {
        guard let index = value?.integer else { return nil }
        return menu.first { $0.index == index }
    }

    /// Whether `set` can change it.
    public var isWritable: Bool {
        !flags.contains(.readOnly) && type != .controlClass
    }

    /// Whether the value is a number in `minimum...maximum` that a percentage can address.
    var acceptsPercentage: Bool {
        [.integer, .integer64, .unsigned8, .unsigned16, .unsigned32].contains(type) && maximum > minimum
    }

    /// The value as a person reads it: "128", "1 (Manual Mode)", "true", "0x80002000", "\"abc\"" — control
    /// characters from the driver or a previous `set` escaped, never printed raw.
    public var valueDescription: String {
        guard let value else { return type == .button ? "(button)" : "(write-only)" }
        if let item = selectedMenuItem { return "\(value) (\(PrintableText.escaping(item.name)))" }
        if type == .boolean, let number = value.integer { return number != 0 ? "true" : "false" }
        if type == .bitmask, let number = value.integer { return Self.bitmaskText(number) }
        if case let .string(text) = value { return "\"" + PrintableText.escaping(text) + "\"" }
        return value.description
    }

    /// A bitmask as v4l2-ctl prints one: "0x80402010".
    static func bitmaskText(_ bits: Int64) -> String {
        let digits = String(UInt32(truncatingIfNeeded: bits), radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// Where the value sits in the range, 0…100 (for integer controls). Computed in floating point: the span of
    /// a 64-bit control can be the whole of Int64, which integer arithmetic would overflow.
    public var percentage: Double? {
        guard acceptsPercentage, let number = value?.integer else { return nil }
        return (Double(number) - Double(minimum)) * 100 / (Double(maximum) - Double(minimum))
    }

    init(query: ControlQuery, value: ControlValue?, menu: [ControlMenuItem], className: String?) {
        name = ControlName.from(label: query.label)
        label = query.label
        id = query.id
        type = query.type
        minimum = query.minimum
        maximum = query.maximum
        step = query.step
        defaultValue = query.defaultValue
        flags = query.flags
        self.value = value
        self.menu = menu
        self.className = className
        // An array type without dimensions (older drivers) is a one-dimensional array of `elements`.
        dimensions = query.dimensions.isEmpty && ControlArray.elementWidth(of: query.type) != nil
            ? [Int(max(query.elements, 1))] : query.dimensions.map(Int.init)
    }
}
