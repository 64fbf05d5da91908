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
        guard let words = PayloadWords.read(4, from: bytes) else { return nil }
        self.init(left: Int32(bitPattern: words[0]), top: Int32(bitPattern: words[1]), width: words[2], height: words[3])
    }

    func write(into bytes: inout [UInt8]) {
        PayloadWords.write([UInt32(bitPattern: left), UInt32(bitPattern: top), width, height], into: &bytes)
    }

    /// "left,top,widthxheight" — also the form `gstcam set` accepts.
    public var description: String { "\(left),\(top),\(width)x\(height)" }
}
