/// A compound control's payload as the kernel lays out its structs of 32-bit fields (v4l2_rect, v4l2_area):
/// little-endian words, one after another.
enum PayloadWords {
    /// The first `count` words of `bytes`; nil when the payload is shorter.
    static func read(_ count: Int, from bytes: [UInt8]) -> [UInt32]? {
        guard bytes.count >= count * 4 else { return nil }
        return (0..<count).map { index in
            (0..<4).reduce(0) { $0 | UInt32(bytes[index * 4 + $1]) << (8 * UInt32($1)) }
        }
    }

    /// Writes `words` at the start of `bytes`; nothing when the payload is too short for them.
    static func write(_ words: [UInt32], into bytes: inout [UInt8]) {
        guard bytes.count >= words.count * 4 else { return }
        for (index, word) in words.enumerated() {
            for byte in 0..<4 { bytes[index * 4 + byte] = UInt8(truncatingIfNeeded: word >> (8 * UInt32(byte))) }
        }
    }
}
