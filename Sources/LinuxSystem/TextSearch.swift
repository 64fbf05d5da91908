/// Looking for a piece of text in a string, in its UTF-8 bytes.
///
/// The standard library's own `firstRange(of:)`, `contains(_:)` and `split(separator:)` with a string argument live
/// in its _StringProcessing module, whose code the linker can only place as one 390 KB block next to the 475 KB of
/// its regex parser: a single call made every command page in its part of that (~0.3 MiB of a preview's resident
/// memory, docs/benchmarks.md). The patterns gstcam looks for are plain text, for which the bytes find what the
/// characters would: a pattern that is valid UTF-8 can only match at a character boundary of valid UTF-8 text.
extension StringProtocol {
    /// The first range where `text` occurs; an empty `text` occurs at the start.
    public func firstRange(ofText text: some StringProtocol) -> Range<Index>? {
        firstRange(ofText: text, from: startIndex)
    }

    /// Whether `text` occurs.
    public func containsText(_ text: some StringProtocol) -> Bool {
        firstRange(ofText: text) != nil
    }

    /// The pieces between the occurrences of `text` (a non-empty one), empty pieces included: "a--b" by "-" is
    /// ["a", "", "b"].
    public func components(separatedByText text: some StringProtocol) -> [SubSequence] {
        var pieces: [SubSequence] = []
        var start = startIndex
        while !text.isEmpty, let range = firstRange(ofText: text, from: start) {
            pieces.append(self[start..<range.lowerBound])
            start = range.upperBound
        }
        pieces.append(self[start..<endIndex])
        return pieces
    }

    private func firstRange(ofText text: some StringProtocol, from start: Index) -> Range<Index>? {
        let bytes = utf8, pattern = Array(text.utf8)
        guard let first = pattern.first else { return start..<start }
        var from = start
        while let candidate = bytes[from...].firstIndex(of: first) {
            var end = candidate, matched = 0
            while matched < pattern.count, end != bytes.endIndex, bytes[end] == pattern[matched] {
                bytes.formIndex(after: &end)
                matched += 1
            }
            if matched == pattern.count { return candidate..<end }
            from = bytes.index(after: candidate)
        }
        return nil
    }
}
