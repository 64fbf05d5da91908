import Foundation
import Testing

/// `gstcam preview --json` without a window: a figures line each second of the run, and the exit at the end of
/// `--duration`, not at the next whole second (the screen's loop wakes once a second and at the end instead of
/// polling four times a second: issue 13).
@Suite struct PreviewFiguresTests {
    @Test func aHeadlessPreviewPrintsFiguresEachSecondAndEndsAtItsDuration() throws {
        let cameras = try VirtualCameras.Isolated()
        defer { cameras.remove() }
        let clock = ContinuousClock()
        let started = clock.now
        let preview = try cameras.gstcam("preview", "--device", "/dev/video0", "--width", "320", "--height", "240",
                                         "--fps", "30", "--sink", "none", "--duration", "3.5", "--json")
        let took = clock.now - started
        #expect(preview.status == 0, "\(preview.standardError)")
        let figures = preview.standardOutput.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["seconds"] != nil }
        #expect(figures.compactMap { $0["seconds"] as? Double } == [1, 2, 3], "\(preview.standardOutput)")
        let frames = figures.compactMap { $0["frames"] as? Int }
        #expect(frames == frames.sorted() && Set(frames).count == frames.count, "frames counted: \(frames)")
        #expect((80...100).contains(frames.last ?? 0), "frames at 3 s at 30 fps: \(frames)")
        // The start (~0.1–1 s in a debug build under load) plus 3.5 s; a loop that went on to the next whole
        // second would also have printed a fourth line.
        #expect(took < .milliseconds(5000), "the preview took \(took)")
    }
}
