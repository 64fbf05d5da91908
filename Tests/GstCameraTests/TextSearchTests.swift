import Foundation
import Testing
import LinuxSystem

/// LinuxSystem's text search and environment, which the everyday commands use instead of _StringProcessing's
/// `firstRange(of:)`/`contains(_:)` and FoundationEssentials' ProcessInfo (issue 13: that code stays out of memory).
@Suite struct TextSearchTests {
    @Test func findsTheFirstOccurrenceAfterAFalseStart() throws {
        let text = "video/x-raw,format=${format},width=${width}"
        let range = try #require(text.firstRange(ofText: "${"))
        #expect(text[range.lowerBound...].hasPrefix("${format}"))
        // "aab" starts inside "aaab" one byte after the first partial match.
        let repeated = "xaaab"
        let found = try #require(repeated.firstRange(ofText: "aab"))
        #expect(repeated[found] == "aab" && repeated.distance(from: repeated.startIndex, to: found.lowerBound) == 2)
        #expect(text.firstRange(ofText: "${height}") == nil && "ab".firstRange(ofText: "abc") == nil)
        #expect("abc".firstRange(ofText: "") == "abc".startIndex..<"abc".startIndex)
    }

    @Test func findsTextAfterCharactersOfSeveralBytesAndInSubstrings() throws {
        let line = "● REC 0:12 · Virtual Camera"
        let range = try #require(line.firstRange(ofText: "● REC"))
        #expect(range.lowerBound == line.startIndex && line[range] == "● REC")
        let tail = line[line.index(after: line.startIndex)...]
        #expect(tail.containsText("Camera") && !tail.containsText("● REC"))
        #expect(try #require(tail.firstRange(ofText: "·")).lowerBound == line.firstIndex(of: "·"))
        #expect("Integrated infrared camera".containsText("infrared") && !"Integrated IR camera".containsText("infrared"))
    }

    @Test func splitsAtEveryOccurrenceKeepingEmptyPieces() {
        #expect(".photo.partial-12-3".components(separatedByText: ".partial-") == [".photo", "12-3"])
        #expect("a--b-".components(separatedByText: "-") == ["a", "", "b", ""])
        #expect("abc".components(separatedByText: "x") == ["abc"] && "".components(separatedByText: "x") == [""])
    }

    @Test func theEnvironmentIsWhatProcessInfoReads() {
        let environment = ProcessEnvironment.current()
        #expect(environment == ProcessInfo.processInfo.environment)
        #expect(environment["PATH"] != nil && environment["PATH"] == String(cString: getenv("PATH")))
    }
}
