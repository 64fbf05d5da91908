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
