/// The parts of a PNG file the gallery and the atomic writer need: its size (IHDR) and whether it is whole.
enum PNGReader {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// An IEND chunk: length 0, type "IEND", its fixed CRC. A PNG is complete when it ends with exactly this.
    static let endChunk: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    static func hasSignature(_ source: some ByteSource) -> Bool {
        source.bytes(0..<8) == signature
    }

    /// The IHDR chunk's width and height; PNG requires IHDR to be the first chunk.
    static func size(of source: some ByteSource) -> PixelSize? {
        guard hasSignature(source), source.bigEndian32(at: 8) == 13,
              source.bytes(12..<16) == Array("IHDR".utf8),
              let width = source.bigEndian32(at: 16), let height = source.bigEndian32(at: 20),
              width > 0, height > 0 else { return nil }
        return PixelSize(width: width, height: height)
    }

    /// Starts with the signature and ends with the IEND chunk (a truncated write loses the end).
    static func isComplete(_ source: some ByteSource) -> Bool {
        hasSignature(source) && source.count >= signature.count + endChunk.count && source.suffix(12) == endChunk
    }
}
