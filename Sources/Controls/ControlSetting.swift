/// One control to set when a session starts: a name as `gstcam controls` lists it and a value as `gstcam set`
/// takes it (a number, a percentage such as "60%", a menu entry, on/off).
public struct ControlSetting: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
