/// The value of a `V4L2_CTRL_TYPE_AREA` control (struct v4l2_area: width, height as u32), e.g. vivid's "Area".
public struct ControlArea: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: UInt32
    public var height: UInt32

    public init(width: UInt32, height: UInt32) {
        self.width = width
        self.height = height
    }

    init?(bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        func word(_ offset: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
        }
        self.init(width: word(0), height: word(4))
    }

    func write(into bytes: inout [UInt8]) {
        guard bytes.count >= 8 else { return }
        for (index, word) in [width, height].enumerated() {
            for byte in 0..<4 { bytes[index * 4 + byte] = UInt8(truncatingIfNeeded: word >> (8 * UInt32(byte))) }
        }
    }

    /// "WIDTHxHEIGHT" — also the form `gstcam set` accepts.
    public var description: String { "\(width)x\(height)" }
}
