import Foundation
import Glibc
import Testing
@testable import GstCamera

/// `gstcam record` for a camera a running camera screen holds: the screen records through its socket, this
/// command shows progress, `--duration` is exact and Ctrl-C stops and saves (exit 130); the preview goes on.
@Suite(.serialized) struct RecordServedTests {
    @Test func aRunningScreenRecordsForTheCommandWithItsDurationAndCtrlC() throws {
        let (preview, socket) = try ScreenProcess.testPattern(seconds: 30, ["--width", "320", "--height", "240"])
        defer { preview.remove() }

        let timed = preview.folder + "/timed.mp4"
        let result = try runProcess(gstcamBinary, ["record", "--pipeline", "test-pattern", "--duration", "1.5", "-o", timed],
                                    environment: preview.environment())
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("through the camera screen at \(socket)"), "\(result.error)")
        #expect(result.output.hasPrefix("Saved \(timed) (320x240, 1.5 s, 45 frames"), "\(result.output)")
        let probed = try ProbedVideo.read(timed)
        #expect(probed.frames == 45 && probed.codec == "h264" && probed.width == 320, "\(probed.frames) frames")

        // Until Ctrl-C: stopped and saved through the screen, exit status 130.
        let open = preview.folder + "/open.mp4"
        let recorder = try BackgroundGstcam(["record", "--pipeline", "test-pattern", "-o", open, "--json"],
                                            environment: preview.environment())
        defer { recorder.remove() }
        #expect(recorder.wait(10) { recorder.output.contains(#""event":"progress""#) }, "\(recorder.errors)")
        kill(recorder.process.processIdentifier, SIGINT)
        #expect(recorder.exitStatus(within: 10) == 130, "\(recorder.errors)")
        let saved = try #require(recorder.output.split(separator: "\n").last.flatMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        })
        #expect(saved["event"] as? String == "saved" && saved["path"] as? String == open, "\(recorder.output)")
        let frames = try #require(saved["frames"] as? Int)
        let probedOpen = try ProbedVideo.read(open)
        #expect(frames >= 30 && probedOpen.frames == frames, "\(frames) frames")
        #expect(try decodeEveryFrame(open).status == 0)
        #expect(preview.process.isRunning, "\(preview.errors)")
    }

    /// `--segment` and sound through the screen's `record_start` ("segment", "audio"): the screen writes the numbered
    /// files, each with its AAC sound, and this command names them all; `--pre` ("pre", then "record_begin" on SIGUSR2) too.
    @Test func aRunningScreenRecordsSegmentsSoundAndPreRollForTheCommand() throws {
        let (preview, socket) = try ScreenProcess.testPattern(seconds: 30, ["--width", "320", "--height", "240"])
        defer { preview.remove() }

        let clip = preview.folder + "/served.mp4"
        let result = try runProcess(gstcamBinary, ["record", "--pipeline", "test-pattern", "--duration", "2.5", "--segment", "1",
                                                   "--audio-test-tone", "--json", "-o", clip], environment: preview.environment())
        #expect(result.status == 0, "\(result.error)")
        let saved = try #require(result.output.split(separator: "\n").last.flatMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        })
        let files = saved["files"] as? [String] ?? []
        #expect(files == (1...3).map { preview.folder + String(format: "/served_%05d.mp4", $0) }, "\(result.output)")
        var frames = 0
        for file in files {
            let probed = try ProbedVideo.read(file)
            #expect(probed.codec == "h264" && probed.width == 320, "\(file): \(probed)")
            frames += probed.frames
            let audio = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                           "stream=codec_name", "-of", "csv=p=0", file])
            #expect(audio.output.trimmingCharacters(in: .whitespacesAndNewlines) == "aac", "\(file): \(audio.output)")
        }
        #expect(frames == 75, "\(frames) frames")
        #expect(preview.process.isRunning, "\(preview.errors)")

        // --pre through the screen ("pre", then "record_begin" on SIGUSR2): no file until the signal, then one that
        // starts 1 s to 2 s (back to a keyframe) before it and lasts 1 s after it, at 30 fps.
        let pre = preview.folder + "/pre.mp4"
        try BackgroundGstcam.recordPreRolled(["--pipeline", "test-pattern", "--pre", "1", "--duration", "1"], path: pre, armedFor: 2,
                                             environment: preview.environment())
        let probed = try ProbedVideo.read(pre)
        #expect(probed.frames >= 58 && probed.frames <= 92, "\(probed.frames) frames")
        #expect(try decodeEveryFrame(pre).status == 0)
        #expect(preview.process.isRunning, "\(preview.errors)")
    }
}
