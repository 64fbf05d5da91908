import Foundation
import Testing
@testable import PipelineFiles

/// A source that is not live (a pipeline file of one's own: a video file, `videotestsrc` without `is-live`) runs
/// at the clock's pace like a camera, window or not: before, without a window nothing in a session held it back,
/// and it made thousands of frames a second on a core of its own.
@Suite struct SourcePacingTests {
    @Test func aSourceThatIsNotLiveKeepsTheClocksPaceWithoutAWindow() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try notLiveTestPattern(in: folder)
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

    /// The shipped test pattern with `is-live=false`, as a file in `folder`.
    private func notLiveTestPattern(in folder: String) throws -> String {
        let shipped = try String(contentsOfFile: PipelineFile.load("test-pattern").path, encoding: .utf8)
        #expect(shipped.contains("is-live=true"))
        let file = folder + "/not-live.pipeline"
        try shipped.replacingOccurrences(of: "is-live=true", with: "is-live=false").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
