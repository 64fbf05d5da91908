import Foundation
import Testing
@testable import PipelineFiles

/// A source that is not live (a pipeline file of one's own: a video file, `videotestsrc` without `is-live`) runs
/// at the clock's pace like a camera, window or not: before, without a window nothing in a session held it back,
/// and it made thousands of frames a second on a core of its own. So does one in a bin (uridecodebin, a
/// `( … )` group), whose liveness is known only once it starts.
@Suite struct SourcePacingTests {
    @Test(arguments: [SourceKind.element, .bin])
    func aSourceThatIsNotLiveKeepsTheClocksPaceWithoutAWindow(_ kind: SourceKind) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try Self.testPattern(in: folder, kind, live: false)
        let preview = try gstcam(["preview", "--pipeline", file, "--width", "160", "--height", "120", "--fps", "10",
                                  "--sink", "none", "--duration", "2", "--json"])
        #expect(preview.status == 0, "\(preview.error)")
        let frames = preview.output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.compactMap { $0["frames"] as? Int }
        #expect(frames.count == 2, "\(preview.output)")
        // 10 in the second second; unpaced, a 160x120 test pattern makes thousands. (The first second may count a
        // few more: frames due while a slow machine was still starting the branches are let through at once.)
        let secondSecond = frames.count == 2 ? frames[1] - frames[0] : 0
        #expect((7...13).contains(secondSecond), "frames counted each second: \(frames)")
    }

    enum SourceKind: Sendable, CustomTestStringConvertible {
        case element, bin
        var testDescription: String { self == .element ? "videotestsrc" : "videotestsrc in a bin" }
    }

    /// The shipped test pattern as a file in `folder`: its source live or not, itself or in a bin named `source`.
    static func testPattern(in folder: String, _ kind: SourceKind, live: Bool) throws -> String {
        let shipped = try String(contentsOfFile: PipelineFile.load("test-pattern").path, encoding: .utf8)
        let source = "videotestsrc name=source is-live=true"
        #expect(shipped.contains(source))
        let replacement = kind == .element ? "videotestsrc name=source is-live=\(live)" : "( name=source videotestsrc is-live=\(live) )"
        let file = folder + "/\(kind)-\(live ? "live" : "not-live").pipeline"
        try shipped.replacingOccurrences(of: source, with: replacement).write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
