import Foundation
import Testing
@testable import MediaFiles
@testable import Screen
@testable import Serve
@testable import Session

/// `gstcam serve --camera A --camera B` (issue 12): each camera in its own session at its own RTSP path, and
/// the web page's camera picker. The two virtual cameras are told apart by their identity colours along the
/// top of the picture: /dev/video0 red (e61e1e), /dev/video2 green (00ff00).
@Suite(.serialized) struct ServeCamerasTests {
    static let devices = "/dev/video0=uvc,color=e61e1e;/dev/video2=sensor,color=00ff00"
    static let red = (230, 30, 30), green = (0, 255, 0)

    @Test func twoCamerasAreServedAtTwoPathsAndThePagePicksOne() throws {
        let serving = try ScreenProcess(["serve", "--camera", "/dev/video0", "--camera", "/dev/video2", "--width", "320", "--height", "240",
                                         "--rtsp", "0", "--http", "0", "--json"], devices: Self.devices)
        defer { serving.remove() }
        let rtsp = try serving.servingURL("rtsp://127.0.0.1:")
        let web = try serving.servingURL("http://127.0.0.1:")
        let slash = try #require(rtsp.lastIndex(of: "/"))
        let base = String(rtsp[...slash])  // rtsp://127.0.0.1:PORT/
        #expect(serving.output.contains(#""name":"video0""#) && serving.output.contains(#""name":"video2""#), "\(serving.output)")

        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, colour, other) in [("video0", Self.red, Self.green), ("video2", Self.green, Self.red)] {
            let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-timeout", "10000000", "-rtsp_transport", "tcp",
                                                            "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", base + name],
                                       environment: environmentWithoutCameras)
            #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,320,240", "\(name): \(probe.error)")
            let frame = folder + "/\(name).png"
            let decoded = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-rtsp_transport", "tcp", "-i", base + name,
                                                             "-frames:v", "1", "-y", frame], environment: environmentWithoutCameras)
            #expect(decoded.status == 0, "\(name): \(decoded.error)")
            let picture = try PageShot(frame)
            let band = (x: 0..<320, y: 4..<36)
            #expect(picture.share(of: colour, x: band.x, y: band.y) > 0.5 && picture.share(of: other, x: band.x, y: band.y) < 0.05,
                    "rtsp …/\(name) shows its own camera")
        }

        // The page opened on video2 shows the green camera; its picker lists both and opens video0 (red).
        let pick = "eval (() => { const picker = document.querySelector('#camera'); const options = [...picker.options].map(o => o.value); "
            + "picker.value = 'video0'; picker.dispatchEvent(new Event('change')); return [picker.hidden, options]; })()"
        let result = try HeadlessChromium.run(web + "?view=mjpeg&camera=video2", folder: folder, steps: [
            "sleep 1.5", "shot video2.png", pick, "sleep 2.5", "shot video0.png", "eval location.search",
        ])
        #expect(result.status == 0, "\(result.error.suffix(800))")
        #expect(result.output.contains(#"[false, ["video0", "video2"]]"#) && result.output.contains("camera=video0"), "\(result.output)")
        let whole = (x: 0..<800, y: 0..<600)
        let second = try PageShot(folder + "/video2.png"), first = try PageShot(folder + "/video0.png")
        #expect(second.share(of: Self.green, x: whole.x, y: whole.y) > 0.02 && second.share(of: Self.red, x: whole.x, y: whole.y) < 0.005,
                "the page on video2 shows the green camera")
        #expect(first.share(of: Self.red, x: whole.x, y: whole.y) > 0.02 && first.share(of: Self.green, x: whole.x, y: whole.y) < 0.005,
                "picked video0: the red camera")
        #expect(serving.process.isRunning, "\(serving.errors)")
    }

    @Test func theCameraNamesAreChecked() throws {
        let twoPaths = try gstcam(["serve", "--camera", "/dev/video0", "--path", "a", "--path", "b", "--path", "c"])
        #expect(twoPaths.status == 64 && twoPaths.error.contains("one --path per camera"), "\(twoPaths.error)")
        let bad = try gstcam(["serve", "--path", "../x"])
        #expect(bad.status == 64 && bad.error.contains("plain name"), "\(bad.error)")
    }
}
