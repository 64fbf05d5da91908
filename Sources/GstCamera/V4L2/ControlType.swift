/// `V4L2_CTRL_TYPE_*`, with the short names v4l2-ctl prints ("int", "bool", "menu", …).
public struct ControlType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let integer = ControlType(rawValue: 1)
    public static let boolean = ControlType(rawValue: 2)
    public static let menu = ControlType(rawValue: 3)
    public static let button = ControlType(rawValue: 4)
    public static let integer64 = ControlType(rawValue: 5)
    /// A heading that starts a class of controls ("User Controls", "Camera Controls").
    public static let controlClass = ControlType(rawValue: 6)
    public static let string = ControlType(rawValue: 7)
    public static let bitmask = ControlType(rawValue: 8)
    public static let integerMenu = ControlType(rawValue: 9)
    public static let unsigned8 = ControlType(rawValue: 0x0100)
    public static let unsigned16 = ControlType(rawValue: 0x0101)
    public static let unsigned32 = ControlType(rawValue: 0x0102)
    public static let area = ControlType(rawValue: 0x0106)
    /// V4L2_CTRL_TYPE_RECT (Linux 6.x, used by the UVC region-of-interest control); not in Debian 12's header.
    public static let rectangle = ControlType(rawValue: 0x0107)

    public var description: String {
        switch self {
        case .integer: "int"
        case .boolean: "bool"
        case .menu: "menu"
        case .button: "button"
        case .integer64: "int64"
        case .controlClass: "ctrl_class"
        case .string: "str"
        case .bitmask: "bitmask"
        case .integerMenu: "intmenu"
        case .unsigned8: "u8"
        case .unsigned16: "u16"
        case .unsigned32: "u32"
        case .area: "area"
        case .rectangle: "rect"
        default: "type_0x" + String(rawValue, radix: 16)
        }
    }
}

/// `V4L2_CTRL_FLAG_*`.
public struct ControlFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let disabled = ControlFlags(rawValue: 0x0001)
    /// Temporarily unchangeable, e.g. while streaming.
    public static let grabbed = ControlFlags(rawValue: 0x0002)
    public static let readOnly = ControlFlags(rawValue: 0x0004)
    public static let update = ControlFlags(rawValue: 0x0008)
    /// Another control (an automatic mode) currently makes this one meaningless.
    public static let inactive = ControlFlags(rawValue: 0x0010)
    public static let slider = ControlFlags(rawValue: 0x0020)
    public static let writeOnly = ControlFlags(rawValue: 0x0040)
    /// The value changes by itself (a status, or a value an automatic mode drives).
    public static let volatile = ControlFlags(rawValue: 0x0080)
    public static let hasPayload = ControlFlags(rawValue: 0x0100)
    public static let executeOnWrite = ControlFlags(rawValue: 0x0200)
    public static let modifyLayout = ControlFlags(rawValue: 0x0400)
    public static let dynamicArray = ControlFlags(rawValue: 0x0800)

    /// The names v4l2-ctl uses ("read-only", "inactive", …), in bit order.
    public var names: [String] {
        let table: [(ControlFlags, String)] = [
            (.disabled, "disabled"), (.grabbed, "grabbed"), (.readOnly, "read-only"), (.update, "update"),
            (.inactive, "inactive"), (.slider, "slider"), (.writeOnly, "write-only"), (.volatile, "volatile"),
            (.hasPayload, "has-payload"), (.executeOnWrite, "execute-on-write"), (.modifyLayout, "modify-layout"),
            (.dynamicArray, "dynamic-array"),
        ]
        return table.filter { contains($0.0) }.map(\.1)
    }
}

/// The value of a `V4L2_CTRL_TYPE_RECT` control (struct v4l2_rect: left, top as s32; width, height as u32).
public struct ControlRectangle: Hashable, Sendable, Codable, CustomStringConvertible {
    public var left: Int32
    public var top: Int32
    public var width: UInt32
    public var height: UInt32

    public init(left: Int32, top: Int32, width: UInt32, height: UInt32) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
    }

    init?(bytes: [UInt8]) {
        guard bytes.count >= 16 else { return nil }
        func word(_ offset: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
        }
        self.init(left: Int32(bitPattern: word(0)), top: Int32(bitPattern: word(4)), width: word(8), height: word(12))
    }

    func write(into bytes: inout [UInt8]) {
        guard bytes.count >= 16 else { return }
        for (index, word) in [UInt32(bitPattern: left), UInt32(bitPattern: top), width, height].enumerated() {
            for byte in 0..<4 { bytes[index * 4 + byte] = UInt8(truncatingIfNeeded: word >> (8 * UInt32(byte))) }
        }
    }

    /// "left,top,widthxheight" — also the form `gstcam set` accepts.
    public var description: String { "\(left),\(top),\(width)x\(height)" }
}
