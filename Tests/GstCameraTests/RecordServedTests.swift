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
}
