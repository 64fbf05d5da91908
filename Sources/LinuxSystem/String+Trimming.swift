extension String {
    /// Without leading and trailing whitespace (Foundation-free, as the library does not import Foundation).
    public var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

extension Substring {
    public var trimmingWhitespace: String { String(self).trimmingWhitespace }
}
