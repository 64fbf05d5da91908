import Foundation
import Testing
@testable import GstCamera

/// `gstcam gallery` lists videos: their length and size as FFmpeg's ffprobe reads them, finished or cut off.
@Suite struct GalleryVideoTests {
    @Test func videosAreListedWithTheLengthFFprobeFindsEvenWhenCutOff() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recorded = try gstcam(["record", "--pipeline", "test-pattern", "--width", "160", "--height", "120",
                                   "--duration", "2.5", "-o", folder + "/whole.mp4"])
        #expect(recorded.status == 0, "\(recorded.error)")
        // A recording cut off after its second fragment, as a crash leaves it.
        let whole = try Data(contentsOf: URL(fileURLWithPath: folder + "/whole.mp4"))
        try whole.prefix(whole.count * 3 / 4).write(to: URL(fileURLWithPath: folder + "/cut.mp4"))

        let listed = try gstcam(["gallery", "--dir", folder, "--json"])
        #expect(listed.status == 0, "\(listed.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any])
        #expect(object["videoDirectory"] as? String == folder)
        let videos = try #require(object["videos"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: videos.map { ($0["name"] as? String ?? "", $0) })
        let wholeEntry = try #require(byName["whole.mp4"]), cutEntry = try #require(byName["cut.mp4"])
        #expect(wholeEntry["width"] as? Int == 160 && wholeEntry["height"] as? Int == 120)
        #expect(wholeEntry["bytes"] as? Int == whole.count)
        #expect(wholeEntry["complete"] as? Bool == true && cutEntry["complete"] as? Bool == false)
        let probedWhole = try ProbedVideo.read(folder + "/whole.mp4")
        let wholeSeconds = try #require(wholeEntry["seconds"] as? Double)
        #expect(abs(wholeSeconds - (try #require(probedWhole.duration))) < 1.0 / 30, "\(wholeSeconds)")
        // The cut file (its header has no duration): the whole fragments are listed, so at most the second of
        // the fragment cut short is missing from what FFmpeg decodes.
        let probedCut = try ProbedVideo.read(folder + "/cut.mp4")
        let cutSeconds = try #require(cutEntry["seconds"] as? Double)
        let decodedSeconds = Double(probedCut.frames) / 30
        #expect(cutSeconds >= 0.9 && cutSeconds <= decodedSeconds + 0.5 / 30 && cutSeconds >= decodedSeconds - 1.0,
                "\(cutSeconds) s listed, \(probedCut.frames) frames decoded")
        #expect(cutSeconds < wholeSeconds)

        let table = try gstcam(["gallery", "--dir", folder])
        #expect(table.output.contains("2 videos in \(folder) (given with --dir), newest first:"), "\(table.output)")
        #expect(table.output.contains("2.5 s") && table.output.contains("cut.mp4  (not finished"), "\(table.output)")
    }
}
