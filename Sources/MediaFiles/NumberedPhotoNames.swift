import LinuxSystem
/// The file names of a burst or timelapse written to an explicit path (`gstcam capture -o PATTERN --count N`).
///
/// A pattern with a printf-style number — `%d`, `%4d` or `%04d` (`%%` for a literal %) — gets the shot number
/// there: `shot-%03d.jpg` → `shot-001.jpg`, `shot-002.jpg`… A plain name gets `_0001`, `_0002`… before its
/// extension, like gallery bursts: `cat.jpg` → `cat_0001.jpg`. Numbers start at 1.
public struct NumberedPhotoNames: Sendable, Equatable {
    public let pattern: String

    private enum Piece: Sendable, Equatable {
        case text(String)
        case number(width: Int, zeroPadded: Bool)
    }

    private let pieces: [Piece]

    /// Nil when the pattern has more than one number, or a % that is neither `%%` nor a number.
    public init?(pattern: String) {
        var pieces: [Piece] = []
        var text = ""
        var numbers = 0
        var rest = Substring(pattern)
        while let first = rest.first {
            rest = rest.dropFirst()
            guard first == "%" else { text.append(first); continue }
            if rest.first == "%" {
                text.append("%")
                rest = rest.dropFirst()
                continue
            }
            let zeroPadded = rest.first == "0"
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            guard rest.first == "d", digits.count <= 2 else { return nil }
            rest = rest.dropFirst()
            pieces.append(.text(text))
            text = ""
            pieces.append(.number(width: Int(digits) ?? 0, zeroPadded: zeroPadded))
            numbers += 1
        }
        guard numbers <= 1 else { return nil }
        if numbers == 0 {
            // "dir/cat.jpg" → "dir/cat" + _0001 + ".jpg"
            let name = FilePath.lastComponent(of: pattern)
            let (stem, fileExtension) = FilePath.splitExtension(name)
            let head = String(pattern.dropLast(name.count)) + stem + "_"
            pieces = [.text(head), .number(width: 4, zeroPadded: true), .text(fileExtension.map { "." + $0 } ?? "")]
        } else {
            pieces.append(.text(text))
        }
        self.pattern = pattern
        self.pieces = pieces.filter { $0 != .text("") }
    }

    /// Whether the pattern says where the number goes (otherwise `_0001` is added before the extension).
    public var hasNumberField: Bool { pattern.replacingPercentEscapes.contains("%") }

    /// The path for shot `number` (1 for the first).
    public func path(forShot number: Int) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): return text
            case let .number(width, zeroPadded):
                let digits = String(number)
                let padding = String(repeating: zeroPadded ? "0" : " ", count: max(0, width - digits.count))
                return padding + digits
            }
        }.joined()
    }
}

extension String {
    /// The string with `%%` removed, to look for a remaining % conversion.
    fileprivate var replacingPercentEscapes: String {
        var result = ""
        var rest = Substring(self)
        while let first = rest.first {
            rest = rest.dropFirst()
            if first == "%", rest.first == "%" { rest = rest.dropFirst(); continue }
            result.append(first)
        }
        return result
    }
}
