extension String {
    /// Without leading and trailing whitespace (Foundation-free, as the library does not import Foundation).
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

extension Substring {
    var trimmingWhitespace: String { String(self).trimmingWhitespace }
}
