import Foundation
import Testing
@testable import GstCamera

/// `--audio auto` on a machine whose sound input gives nothing (CI, this machine: no sound card, no sound
/// server): a warning on stderr, a video without sound, exit status 0.
@Suite struct RecordAudioAutoTests {
    @Test func withoutSoundTheVideoIsRecordedWithAWarning() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/auto.mp4"
        let result = try gstcam(["record", "--pipeline", "test-pattern", "--width", "160", "--height", "120",
                                 "--duration", "1", "--audio", "auto", "-o", path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("warning: no sound input could be opened ("), "\(result.error)")
        #expect(result.error.contains("recording video only"), "\(result.error)")
        let probed = try ProbedVideo.read(path)
        #expect(probed.codec == "h264" && probed.frames == 30, "\(probed.frames) frames")
        let streams = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", path])
        #expect(streams.output.split(separator: "\n") == ["video"], "\(streams.output)")
    }
}
