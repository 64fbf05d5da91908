/// The value of an array control (V4L2_CTRL_TYPE_U8/U16/U32 with dimensions, e.g. vivid's "U16 8x16 Matrix"):
/// its elements in memory order (the last dimension varies fastest) and the dimensions they fill.
public struct ControlArray: Sendable, Hashable, CustomStringConvertible {
    /// E.g. [8, 16] for an 8×16 matrix; [1] for a one-element array.
    public var dimensions: [Int]
    public var elements: [Int64]

    public init(dimensions: [Int], elements: [Int64]) {
        self.dimensions = dimensions
        self.elements = elements
    }

    /// The elements separated by spaces, as `gstcam set` takes them back: "24 24 24".
    public var description: String { elements.map(String.init).joined(separator: " ") }

    /// "[8][16]", as v4l2-ctl prints dimensions.
    public var dimensionsDescription: String { dimensions.map { "[\($0)]" }.joined() }

    /// Reads the elements of an array control's payload (native byte order, as the kernel stores it).
    init?(payload bytes: [UInt8], type: ControlType, dimensions: [Int]) {
        guard let width = Self.elementWidth(of: type) else { return nil }
        self.dimensions = dimensions
        elements = stride(from: 0, to: bytes.count - width + 1, by: width).map { offset in
            var number: UInt64 = 0
            withUnsafeMutableBytes(of: &number) { raw in
                for index in 0..<width { raw[index] = bytes[offset + index] }
            }
            return Int64(UInt64(littleEndian: number))
        }
    }

    /// The payload for S_EXT_CTRLS: `byteCount` bytes, the elements in the control's element width.
    func payload(type: ControlType, byteCount: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        guard let width = Self.elementWidth(of: type) else { return bytes }
        for (index, element) in elements.enumerated() where (index + 1) * width <= byteCount {
            let number = UInt64(truncatingIfNeeded: element).littleEndian
            withUnsafeBytes(of: number) { raw in
                for byte in 0..<width { bytes[index * width + byte] = raw[byte] }
            }
        }
        return bytes
    }

    public static func elementWidth(of type: ControlType) -> Int? {
        switch type {
        case .unsigned8: 1
        case .unsigned16: 2
        case .unsigned32: 4
        default: nil
        }
    }
}
