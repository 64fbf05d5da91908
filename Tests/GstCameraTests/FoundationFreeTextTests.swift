import Foundation
import Synchronization
import Testing
import LinuxSystem
@testable import Screen

/// What gstcam uses instead of Foundation's JSONSerialization, String(format:) and Thread (issue 13: the CLI links
/// only FoundationEssentials): the camera screen's replies must read as before to the scripts that parse them.
@Suite struct FoundationFreeTextTests {
    @Test func repliesAreOneLineWithSortedKeysWholeNumbersAndSlashesAsTheyAre() throws {
        let line = try #require(JSONValue.line(["ok": true, "path": "/home/me/Pictures/a × b.jpg", "width": 1280,
                                               "milliseconds": 12.5, "device": nil, "files": ["/a", "/b"]]))
        #expect(line == #"{"device":null,"files":["/a","/b"],"milliseconds":12.5,"ok":true,"path":"/home/me/Pictures/a × b.jpg","width":1280}"#)
        // The same text as Foundation's JSONSerialization, which wrote these replies before.
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(parsed["width"] as? Int == 1280 && parsed["path"] as? String == "/home/me/Pictures/a × b.jpg")
    }

    @Test func requestsTellBooleansFromNumbersAndNullFromMissing() throws {
        let object = try #require(JSONValue.object(parsing: #"{"on":true,"one":1,"factor":2.5,"path":null,"name":"x"}"#))
        #expect(object["on"]?.bool == true && object["on"]?.double == nil)
        #expect(object["one"]?.bool == nil && object["one"]?.int == 1 && object["factor"]?.int == nil)
        #expect(object["factor"]?.double == 2.5 && object["path"] == .null && object["missing"] == nil)
        #expect(object["name"]?.string == "x")
        #expect(JSONValue.object(parsing: "[1,2]") == nil && JSONValue.object(parsing: "{nope") == nil)
    }

    @Test func decimalsAreWrittenAsPrintfWritesThem() {
        #expect(2.5.decimalText(digits: 1) == "2.5")
        #expect(0.04.decimalText(digits: 1) == "0.0")
        #expect(1.96.decimalText(digits: 1) == "2.0")
        #expect(12.345.decimalText(digits: 2) == "12.35" || 12.345.decimalText(digits: 2) == "12.34")
        #expect((-3.25).decimalText(digits: 1) == "-3.3" || (-3.25).decimalText(digits: 1) == "-3.2")
        #expect(1_234_567.0.decimalText(digits: 1) == "1234567.0")
        #expect(7.0.decimalText(digits: 0) == "7")
        #expect(7.zeroPadded(width: 2) == "07" && 59.zeroPadded(width: 2) == "59" && 123.zeroPadded(width: 2) == "123")
    }

    /// gstcam itself calls nothing of full Foundation (its CoreFoundation and ICU cost every command memory and start
    /// time); gstcam-serve, a binary of its own, may.
    @Test func theCommandLineUsesNoFullFoundation() throws {
        let symbols = try runProcess("/usr/bin/nm", ["-D", "--undefined-only", gstcamBinary])
        #expect(symbols.status == 0, "\(symbols.error)")
        // Swift mangles Foundation's own symbols with its module name: "$s10Foundation…".
        let foundation = symbols.output.split(separator: "\n").filter { $0.contains("s10Foundation") || $0.hasSuffix(" CFRelease") }
        #expect(foundation.isEmpty, "gstcam uses Foundation: \(foundation.prefix(5))")
    }

    @Test func aBlockingThreadRunsItsWorkUnderItsName() {
        let named = DispatchSemaphore(value: 0)
        let seen = Mutex<String?>(nil)
        BlockingThread.start(named: "gstcam-test-thread-name") {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            seen.withLock { $0 = name.trimmingCharacters(in: .whitespacesAndNewlines) }
            named.signal()
        }
        #expect(named.wait(timeout: .now() + 5) == .success)
        // Linux keeps 15 bytes of a thread's name.
        #expect(seen.withLock { $0 } == "gstcam-test-thr")
    }
}
