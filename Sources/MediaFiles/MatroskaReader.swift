/// What the gallery shows of a WebM or Matroska file: the video track's picture size, its length and whether
/// the file was finished. A normal end writes the Info element's Duration; a file cut off by a crash has none,
/// and then the start of its last cluster is the length it surely has (it is marked incomplete).
enum MatroskaReader {
    static let ebmlHeader: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3]
    private static let segmentID = 0x1853_8067
    private static let infoID = 0x1549_A966
    private static let timecodeScaleID = 0x2A_D7B1
    private static let durationID = 0x4489
    private static let tracksID = 0x1654_AE6B
    private static let trackEntryID = 0xAE
    private static let videoID = 0xE0
    private static let pixelWidthID = 0xB0
    private static let pixelHeightID = 0xBA
    private static let clusterID = 0x1F43_B675
    private static let clusterTimecodeID = 0xE7

    static func hasSignature(_ source: some ByteSource) -> Bool {
        source.bytes(0..<4) == ebmlHeader
    }

    struct Element {
        let id: Int
        /// The payload; up to the end of the parent when the size is unknown (a live write).
        let payload: Range<Int>
        let isWhole: Bool
    }

    static func summary(of source: some ByteSource) -> MP4Reader.Summary? {
        guard hasSignature(source) else { return nil }
        guard let segment = elements(in: source, 0..<source.count).first(where: { $0.id == segmentID }) else {
            return MP4Reader.Summary(size: nil, duration: nil, isComplete: false)
        }
        var scale = 1_000_000.0  // nanoseconds per timecode unit (Matroska's default)
        var duration: Double?
        var size: PixelSize?
        var lastCluster: Double?
        for element in elements(in: source, segment.payload) {
            switch element.id {
            case infoID:
                for field in elements(in: source, element.payload) {
                    if field.id == timecodeScaleID, let value = unsigned(source, field.payload), value > 0 { scale = Double(value) }
                    if field.id == durationID { duration = float(source, field.payload) }
                }
            case tracksID where size == nil:
                for entry in elements(in: source, element.payload) where entry.id == trackEntryID {
                    for video in elements(in: source, entry.payload) where video.id == videoID {
                        let fields = elements(in: source, video.payload)
                        if let width = fields.first(where: { $0.id == pixelWidthID }).flatMap({ unsigned(source, $0.payload) }),
                           let height = fields.first(where: { $0.id == pixelHeightID }).flatMap({ unsigned(source, $0.payload) }),
                           width > 0, height > 0 {
                            size = PixelSize(width: width, height: height)
                        }
                    }
                }
            case clusterID:
                // The timecode comes first in a cluster; its frames are not read.
                if let time = elements(in: source, element.payload, limit: 2).first(where: { $0.id == clusterTimecodeID })
                    .flatMap({ unsigned(source, $0.payload) }) {
                    lastCluster = Double(time)
                }
            default: break
            }
        }
        let seconds = (duration ?? lastCluster).map { $0 * scale / 1e9 }
        return MP4Reader.Summary(size: size, duration: seconds, isComplete: duration != nil && segment.isWhole)
    }

    /// The elements one after another in `range` (children of one parent). An element of unknown size (all
    /// ones) reaches to the end of its parent; a cluster of unknown size ends the walk after it.
    static func elements(in source: some ByteSource, _ range: Range<Int>, limit: Int = .max) -> [Element] {
        var found: [Element] = []
        var offset = range.lowerBound
        while found.count < limit, offset < range.upperBound, let (id, idLength) = variableInteger(source, at: offset, keepMarker: true),
              let (size, sizeLength, unknown) = sizeField(source, at: offset + idLength) {
            let start = offset + idLength + sizeLength
            let end = unknown ? range.upperBound : start + size
            found.append(Element(id: id, payload: start..<min(end, range.upperBound), isWhole: !unknown && end <= range.upperBound))
            if unknown { break }
            offset = end
        }
        return found
    }

    /// An EBML variable-length integer at `offset`: (value, length). IDs keep their length marker bit.
    private static func variableInteger(_ source: some ByteSource, at offset: Int, keepMarker: Bool) -> (Int, Int)? {
        guard let first = source.byte(at: offset), first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard length <= 8, let bytes = source.bytes(offset..<offset + length) else { return nil }
        var value = keepMarker ? Int(first) : Int(first) & (0xFF >> length)
        for byte in bytes.dropFirst() { value = value << 8 | Int(byte) }
        return (value, length)
    }

    private static func sizeField(_ source: some ByteSource, at offset: Int) -> (Int, Int, Bool)? {
        guard let (value, length) = variableInteger(source, at: offset, keepMarker: false) else { return nil }
        let allOnes = (1 << (7 * length)) - 1
        return (value, length, value == allOnes)
    }

    private static func unsigned(_ source: some ByteSource, _ payload: Range<Int>) -> Int? {
        guard payload.count <= 8, let bytes = source.bytes(payload) else { return nil }
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    private static func float(_ source: some ByteSource, _ payload: Range<Int>) -> Double? {
        guard let bytes = source.bytes(payload) else { return nil }
        let bits = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        switch bytes.count {
        case 4: return Double(Float(bitPattern: UInt32(bits)))
        case 8: return Double(bitPattern: bits)
        default: return nil
        }
    }
}
