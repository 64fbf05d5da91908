import Foundation
import Testing
@testable import GstCamera

/// `gstcam record` as a user runs it; its files read by ffprobe and ffmpeg.
@Suite(.serialized) struct RecordCommandTests {
    @Test func aTimedRecordingHoldsExactlyItsFramesAndReportsThemAsJSON() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try gstcam(["record", "--pipeline", "test-pattern", "--width", "320", "--height", "240",
                                 "--duration", "1.5", "--dir", folder, "--json"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("Encoder: "), "\(result.error)")
        // openh264enc's drain at the end made OpenH264 print an error although nothing had gone wrong.
        #expect(!result.error.contains("Error"), "\(result.error)")
        let lines = result.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.first?["event"] as? String == "started")
        let saved = try #require(lines.last)
        #expect(saved["event"] as? String == "saved")
        let path = try #require(saved["path"] as? String)
        #expect(path.hasPrefix(folder + "/VID_") && path.hasSuffix(".mp4"), "\(path)")
        let probed = try ProbedVideo.read(path)
        #expect(probed.frames == 45, "\(probed.frames) frames for 1.5 s at 30 fps")
        #expect(saved["frames"] as? Int == probed.frames)
        #expect(abs(try #require(probed.duration) - 1.5) <= 1.0 / 30, "\(probed.duration ?? -1) s")
        #expect(probed.codec == "h264" && probed.width == 320 && probed.height == 240)
        #expect(saved["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
    }

    /// Without -o the gallery is the XDG Videos folder; a second recording gets a new name.
    @Test func theVideosFolderIsTheDefaultAndNothingIsReplaced() throws {
        let home = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_VIDEOS_DIR"] = home + "/Films"
        environment["GSTCAM_VIDEO_DIR"] = nil
        let arguments = ["record", "--pipeline", "test-pattern", "--width", "160", "--height", "120", "--duration", "0.5"]
        let first = try gstcam(arguments, environment: environment)
        let second = try gstcam(arguments, environment: environment)
        #expect(first.status == 0 && second.status == 0, "\(first.error)\(second.error)")
        let files = try FileManager.default.contentsOfDirectory(atPath: home + "/Films/gstcam").sorted()
        #expect(files.count == 2 && files.allSatisfy { $0.hasPrefix("VID_") && $0.hasSuffix(".mp4") }, "\(files)")
        #expect(first.output.hasPrefix("Saved \(home)/Films/gstcam/VID_"), "\(first.output)")
    }

    @Test(arguments: [
        (["--codec", "mpeg2"], "--codec"),
        (["-o", "a.mp4", "--dir", "/tmp"], "either -o FILE or --dir DIR"),
        (["--duration", "0"], "--duration"),
        (["-o", "-"], "a video is written to a file"),
    ])
    func usageMistakesExit64(_ extra: [String], _ message: String) throws {
        let result = try gstcam(["record", "--pipeline", "test-pattern"] + extra)
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.contains(message), "\(result.error)")
    }

    /// SIGKILL mid-recording: the file opens and holds at least all but the last second recorded.
    @Test func aKilledRecordingLeavesAPlayableFile() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/killed.mp4"
        let recorder = try BackgroundGstcam(["record", "--pipeline", "test-pattern", "--width", "320", "--height", "240",
                                             "-o", path, "--json"])
        defer { recorder.remove() }
        #expect(recorder.wait(10) { recorder.output.contains(#""event":"started""#) }, "\(recorder.errors)")
        let started = Date()
        Thread.sleep(forTimeInterval: 2.6)
        let elapsed = Date().timeIntervalSince(started)
        kill(recorder.process.processIdentifier, SIGKILL)
        recorder.process.waitUntilExit()
        let probed = try ProbedVideo.read(path)
        #expect(probed.codec == "h264" && probed.width == 320)
        #expect(Double(probed.frames) >= (elapsed - 1) * 30, "\(probed.frames) frames after \(elapsed) s")
        // Every frame the file holds decodes (ffmpeg notes the cut-off fragment; its exit status is 0).
        let decoded = try decodeEveryFrame(path)
        #expect(decoded.status == 0, "\(decoded.errors)")
    }

    /// `--pre 1 --duration 1`: armed until SIGUSR2, then a file of the second before it (at least) and the second after.
    @Test func preRollStartsOnSIGUSR2WithTheSecondBefore() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/pre.mp4"
        try BackgroundGstcam.recordPreRolled(["--pipeline", "test-pattern", "--width", "320", "--height", "240", "--pre", "1", "--duration", "1"],
                                             path: path, armedFor: 2)
        let probed = try ProbedVideo.read(path)
        // 1 s after the signal, and 1 s to 2 s (back to a keyframe) before it, at 30 fps.
        #expect(probed.frames >= 58 && probed.frames <= 92, "\(probed.frames) frames")
        #expect(try decodeEveryFrame(path).status == 0)
    }
}
