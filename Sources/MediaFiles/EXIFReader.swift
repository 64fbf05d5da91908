import FoundationEssentials

/// The EXIF fields the gallery shows: when the photo was taken and with which camera.
struct EXIFSummary: Equatable {
    var make: String?
    var model: String?
    /// DateTimeOriginal (else DateTimeDigitized) as written: "2026:11:30 14:32:05".
    var dateTimeOriginal: String?
    /// SubSecTimeOriginal: the fraction's digits, "123" for .123 s.
    var subSecondOriginal: String?
    /// OffsetTimeOriginal: "+01:00" — when present the date is an exact moment, else local time.
    var offsetTimeOriginal: String?
    /// Orientation (1…8): how the stored pixels are turned from the scene (6: turn 90° clockwise to show).
    var orientation: Int?

    /// "Make Model", without repeating the make when the model already starts with it
    /// ("Canon" + "Canon EOS R6" → "Canon EOS R6").
    var camera: String? {
        switch (make, model) {
        case (nil, nil): return nil
        case let (make?, nil): return make
        case let (nil, model?): return model
        case let (make?, model?):
            return model.lowercased().hasPrefix(make.lowercased()) ? model : make + " " + model
        }
    }

    /// The moment the photo was taken. Without OffsetTimeOriginal the fields are local time, converted
    /// with `utcOffset` (the local offset in force).
    func dateTaken(utcOffset: (Date) -> Int) -> Date? {
        guard let text = dateTimeOriginal else { return nil }
        let numbers = text.split(whereSeparator: { $0 == ":" || $0 == " " }).map { Int($0) }
        guard numbers.count == 6, numbers.allSatisfy({ $0 != nil }) else { return nil }
        let fields = numbers.map { $0! }
        guard fields[0] > 0 else { return nil }  // "0000:00:00 00:00:00" means unknown
        let fraction = subSecondOriginal.flatMap { Double("0." + $0.filter(\.isNumber)) } ?? 0
        func moment(_ offset: Int) -> Date? {
            Date(year: fields[0], month: fields[1], day: fields[2], hour: fields[3], minute: fields[4],
                 second: fields[5], utcOffset: offset).map { $0.addingTimeInterval(fraction) }
        }
        if let offset = offsetTimeOriginal.flatMap(Self.parseOffset) { return moment(offset) }
        // Local time: the offset at (about) that moment, taken from the UTC reading first.
        guard let guess = moment(0) else { return nil }
        return moment(utcOffset(guess))
    }

    /// "+01:00" → 3600, "-05:30" → -19800.
    static func parseOffset(_ text: String) -> Int? {
        let characters = Array(text.trimmedOfSpaces)
        guard characters.count == 6, characters[0] == "+" || characters[0] == "-", characters[3] == ":",
              let hours = Int(String(characters[1...2])), let minutes = Int(String(characters[4...5])) else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return characters[0] == "-" ? -seconds : seconds
    }
}

/// A minimal TIFF reader for the EXIF block of a JPEG's APP1 segment: the header's byte order ("II" little
/// endian, "MM" big endian), IFD0 and the EXIF sub-IFD it points to, ASCII values only.
enum EXIFReader {
    private enum Tag: Int {
        case make = 0x010F
        case model = 0x0110
        case orientation = 0x0112
        case exifIFDPointer = 0x8769
        case dateTimeOriginal = 0x9003
        case dateTimeDigitized = 0x9004
        case offsetTimeOriginal = 0x9011
        case subSecTimeOriginal = 0x9291
    }
    private static let asciiType = 2
    private static let shortType = 3
    private static let longType = 4

    private struct TIFF {
        let bytes: [UInt8]
        let littleEndian: Bool

        func unsigned(at offset: Int, size: Int) -> Int? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            let slice = bytes[offset..<offset + size]
            let ordered = littleEndian ? Array(slice.reversed()) : Array(slice)
            return ordered.reduce(0) { $0 << 8 | Int($1) }
        }

        struct Entry { let tag, type, count, position: Int }

        /// The entries of the IFD at `offset` (bounded, so a corrupt count cannot run away).
        func entries(at offset: Int) -> [Entry] {
            guard let count = unsigned(at: offset, size: 2), count <= 1000 else { return [] }
            return (0..<count).compactMap { index in
                let position = offset + 2 + index * 12
                guard let tag = unsigned(at: position, size: 2), let type = unsigned(at: position + 2, size: 2),
                      let valueCount = unsigned(at: position + 4, size: 4) else { return nil }
                return Entry(tag: tag, type: type, count: valueCount, position: position)
            }
        }

        /// An ASCII value: inline when it fits in the 4-byte value field, else at the offset stored there.
        func ascii(_ entry: Entry) -> String? {
            guard entry.type == EXIFReader.asciiType, entry.count > 0, entry.count <= 65_535 else { return nil }
            let start = entry.count <= 4 ? entry.position + 8 : unsigned(at: entry.position + 8, size: 4) ?? -1
            guard start >= 0, start + entry.count <= bytes.count else { return nil }
            let raw = bytes[start..<start + entry.count].prefix(while: { $0 != 0 })
            let text = String(decoding: raw, as: UTF8.self).trimmedOfSpaces
            return text.isEmpty ? nil : text
        }

        /// A SHORT value (inline, in the first two bytes of the value field).
        func short(_ entry: Entry) -> Int? {
            entry.count == 1 && entry.type == EXIFReader.shortType ? unsigned(at: entry.position + 8, size: 2) : nil
        }

        func long(_ entry: Entry) -> Int? {
            entry.count == 1 && (entry.type == EXIFReader.longType || entry.type == 13 /* IFD */)
                ? unsigned(at: entry.position + 8, size: 4) : nil
        }
    }

    /// The summary of a TIFF structure (the APP1 payload after "Exif\0\0"); nil when it is not TIFF.
    static func summary(ofTIFF bytes: [UInt8]) -> EXIFSummary? {
        guard bytes.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        let tiff = TIFF(bytes: bytes, littleEndian: littleEndian)
        guard tiff.unsigned(at: 2, size: 2) == 42, let first = tiff.unsigned(at: 4, size: 4) else { return nil }
        var summary = EXIFSummary()
        var exifOffset: Int?
        for entry in tiff.entries(at: first) {
            switch Tag(rawValue: entry.tag) {
            case .make: summary.make = tiff.ascii(entry)
            case .model: summary.model = tiff.ascii(entry)
            case .orientation: summary.orientation = tiff.short(entry).flatMap { (1...8).contains($0) ? $0 : nil }
            case .exifIFDPointer: exifOffset = tiff.long(entry)
            default: break
            }
        }
        if let exifOffset, exifOffset != first {
            var digitized: String?
            for entry in tiff.entries(at: exifOffset) {
                switch Tag(rawValue: entry.tag) {
                case .dateTimeOriginal: summary.dateTimeOriginal = tiff.ascii(entry)
                case .dateTimeDigitized: digitized = tiff.ascii(entry)
                case .offsetTimeOriginal: summary.offsetTimeOriginal = tiff.ascii(entry)
                case .subSecTimeOriginal: summary.subSecondOriginal = tiff.ascii(entry)
                default: break
                }
            }
            if summary.dateTimeOriginal == nil { summary.dateTimeOriginal = digitized }
        }
        return summary
    }
}

extension String {
    /// Without leading and trailing spaces/tabs (EXIF writers pad fixed-size fields with them).
    var trimmedOfSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
