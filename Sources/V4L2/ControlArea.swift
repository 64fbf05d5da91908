/// The value of a `V4L2_CTRL_TYPE_AREA` control (struct v4l2_area: width, height as u32), e.g. vivid's "Area".
public struct ControlArea: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: UInt32
    public var height: UInt32

    public init(width: UInt32, height: UInt32) {
        self.width = width
        self.height = height
    }

    init?(bytes: [UInt8]) {
        guard let words = PayloadWords.read(2, from: bytes) else { return nil }
        self.init(width: words[0], height: words[1])
    }

    func write(into bytes: inout [UInt8]) {
        PayloadWords.write([width, height], into: &bytes)
    }

    /// "WIDTHxHEIGHT" — also the form `gstcam set` accepts.
    public var description: String { "\(width)x\(height)" }
}
