import CZlib

/// A PNG's EXIF block: the `eXIf` chunk (PNG's extensions 1.5.0, now in the PNG specification), which exiftool,
/// browsers and image viewers read as they read a JPEG's APP1 block. GStreamer's pngenc writes no metadata, so
/// gstcam adds the chunk to the encoded image.
public enum PNGEXIFChunk {
    /// `png` with an `eXIf` chunk holding `tiff` (a TIFF header and its IFDs, as in a JPEG after "Exif\0\0")
    /// right after IHDR — before the image data, where readers look for it. Nil when `png` does not start
    /// with the signature and an IHDR chunk, or `tiff` is not TIFF.
    public static func inserting(_ tiff: [UInt8], into png: [UInt8]) -> [UInt8]? {
        let headerEnd = PNGReader.signature.count + 8 + 13 + 4  // signature, IHDR's length and type, data, CRC
        guard PNGReader.size(of: MemoryBytes(png)) != nil, png.count > headerEnd,
              tiff.starts(with: [0x49, 0x49, 0x2A, 0x00]) || tiff.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) else { return nil }
        var chunk = bigEndian(UInt32(tiff.count))
        let typeAndData = Array("eXIf".utf8) + tiff
        chunk += typeAndData
        chunk += bigEndian(UInt32(typeAndData.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }))
        return Array(png[..<headerEnd]) + chunk + Array(png[headerEnd...])
    }

    /// The TIFF structure of `png`'s `eXIf` chunk, if it has one before its image data.
    static func tiff(in source: some ByteSource) -> [UInt8]? {
        var offset = PNGReader.signature.count
        while let length = source.bigEndian32(at: offset), let type = source.bytes(offset + 4..<offset + 8) {
            if type == Array("IDAT".utf8) || type == Array("IEND".utf8) { return nil }
            if type == Array("eXIf".utf8) { return length <= 1 << 20 ? source.bytes(offset + 8..<offset + 8 + length) : nil }
            offset += 12 + length
        }
        return nil
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
