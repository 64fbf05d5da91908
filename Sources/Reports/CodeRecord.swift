/// A code `gstcam scan --json` read: zbar's type name ("QR-Code", "EAN-13", …) and the text it holds.
public struct CodeRecord: Encodable, Equatable {
    public var type: String
    public var text: String

    public init(type: String, text: String) {
        self.type = type
        self.text = text
    }
}
