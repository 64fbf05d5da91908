/// A frame rate as the exact fraction cameras and GStreamer use: 30/1, 25/2 (12.5 fps), 30000/1001 (NTSC's
/// 29.97). Always reduced, with a positive denominator, so equal rates compare equal.
public struct FrameRate: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    public let numerator: Int
    public let denominator: Int

    /// `numerator/denominator` frames per second; nil unless both are positive.
    public init?(numerator: Int, denominator: Int) {
        guard numerator > 0, denominator > 0 else { return nil }
        let divisor = Self.greatestCommonDivisor(numerator, denominator)
        self.numerator = numerator / divisor
        self.denominator = denominator / divisor
    }

    public init(integerLiteral value: Int) {
        self.init(numerator: max(1, value), denominator: 1)!
    }

    /// The rate of a frame interval of `numerator/denominator` seconds (V4L2's `v4l2_fract`): 1/30 s is 30 fps.
    init?(intervalNumerator: UInt32, intervalDenominator: UInt32) {
        self.init(numerator: Int(intervalDenominator), denominator: Int(intervalNumerator))
    }

    /// "30", "12.5", "29.97", "30000/1001" or "15/2". Decimals are taken exactly (12.5 is 25/2); at most three
    /// decimals, and the rate must be positive and at most 1000 fps.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let top = Int(parts[0]), let bottom = Int(parts[1]), top <= 1_000_000, bottom <= 1_000_000 else { return nil }
            self.init(numerator: top, denominator: bottom)
        } else if parts.count == 1 {
            let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(pieces.count), pieces.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  !pieces[0].isEmpty, pieces.count == 1 || (1...3).contains(pieces[1].count),
                  let whole = Int(pieces[0]), whole <= 1000 else { return nil }
            let fraction = pieces.count == 2 ? String(pieces[1]) : ""
            var scale = 1
            for _ in fraction { scale *= 10 }
            self.init(numerator: whole * scale + (Int(fraction) ?? 0), denominator: scale)
        } else {
            return nil
        }
        guard value <= 1000 else { return nil }
    }

    /// Frames per second.
    public var value: Double { Double(numerator) / Double(denominator) }

    /// "30", "12.5", "7.5", "29.97": at most two decimals, trailing zeros dropped.
    public var description: String {
        if denominator == 1 { return String(numerator) }
        let hundredths = (numerator * 100 + denominator / 2) / denominator
        let whole = hundredths / 100, rest = hundredths % 100
        if rest == 0 { return String(whole) }
        return rest % 10 == 0 ? "\(whole).\(rest / 10)" : "\(whole).\(rest < 10 ? "0" : "")\(rest)"
    }

    /// The GStreamer caps form, e.g. "30000/1001".
    public var fraction: String { "\(numerator)/\(denominator)" }

    public static func < (lhs: FrameRate, rhs: FrameRate) -> Bool {
        lhs.numerator * rhs.denominator < rhs.numerator * lhs.denominator
    }

    private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}

extension FrameRate: Codable {
    /// Encoded as its fraction text ("30000/1001"), which `init?(_:)` reads back.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let rate = FrameRate(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a frame rate: \(text)"))
        }
        self = rate
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fraction)
    }
}
