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
