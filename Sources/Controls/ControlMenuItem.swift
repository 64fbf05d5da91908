/// One item of a menu control: its index (the value that selects it) and its name. For integer menus the name
/// is the item's number.
public struct ControlMenuItem: Sendable, Hashable, Codable {
    public var index: Int64
    public var name: String

    public init(index: Int64, name: String) {
        self.index = index
        self.name = name
    }
}
