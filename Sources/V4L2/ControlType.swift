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
