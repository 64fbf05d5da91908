/// The parts of a JPEG file the gallery and the atomic writer need, found by walking the marker segments
/// before the image data: the frame size (SOFn) and the EXIF block (APP1), plus whether the file is whole.
enum JPEGReader {
    struct Header: Equatable {
        var size: PixelSize?
        var exif: EXIFSummary?
    }

    private static let startOfImage: UInt8 = 0xD8
    private static let endOfImage: UInt8 = 0xD9
    private static let startOfScan: UInt8 = 0xDA
    private static let app1: UInt8 = 0xE1
    private static let exifIdentifier: [UInt8] = Array("Exif".utf8) + [0, 0]

    static func hasSignature(_ source: some ByteSource) -> Bool {
        source.bytes(0..<2) == [0xFF, startOfImage]
    }

    /// Starts with SOI and ends with EOI (FFD9): a truncated write loses the end-of-image marker. Zero bytes
    /// after EOI are allowed (some cameras pad their MJPEG frames); a write cut short never ends in them.
    static func isComplete(_ source: some ByteSource) -> Bool {
        guard hasSignature(source), source.count >= 4 else { return false }
        let tail = source.suffix(min(source.count, maximumPadding + 2)) ?? []
        let end = tail.lastIndex(where: { $0 != 0 }) ?? -1
        return end >= 1 && tail[end - 1] == 0xFF && tail[end] == endOfImage
    }

    /// How many padding zeros after EOI `isComplete` looks past.
    static let maximumPadding = 4096

    /// Frame markers SOF0…SOF15 carry the image size; C4 (DHT), C8 (JPG) and CC (DAC) share the range
    /// but are not frames.
    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// Markers that stand alone, without a length: TEM and RST0…RST7.
    private static func isStandalone(_ marker: UInt8) -> Bool {
        marker == 0x01 || (0xD0...0xD7).contains(marker)
    }

    /// The header segments up to the first scan. Nil when the file does not start like a JPEG.
    static func header(of source: some ByteSource) -> Header? {
        guard hasSignature(source) else { return nil }
        var header = Header()
        var offset = 2
        while header.size == nil || header.exif == nil {
            guard source.byte(at: offset) == 0xFF else { break }  // lost sync: corrupt or not a JPEG
            var markerOffset = offset + 1
            while source.byte(at: markerOffset) == 0xFF { markerOffset += 1 }  // fill bytes
            guard let marker = source.byte(at: markerOffset) else { break }
            if isStandalone(marker) || marker == startOfImage { offset = markerOffset + 1; continue }
            if marker == endOfImage || marker == startOfScan { break }
            guard let length = source.bigEndian16(at: markerOffset + 1), length >= 2 else { break }
            let body = markerOffset + 3
            if isStartOfFrame(marker) {
                // precision (1 byte), height (2), width (2)
                if let height = source.bigEndian16(at: body + 1), let width = source.bigEndian16(at: body + 3),
                   width > 0, height > 0 {
                    header.size = PixelSize(width: width, height: height)
                }
            } else if marker == app1, header.exif == nil,
                      let data = source.bytes(body..<body + length - 2), data.starts(with: exifIdentifier) {
                header.exif = EXIFReader.summary(ofTIFF: Array(data.dropFirst(exifIdentifier.count)))
            }
            offset = body + length - 2
        }
        return header
    }
}
