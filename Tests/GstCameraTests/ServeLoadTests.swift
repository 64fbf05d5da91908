import Foundation
import Testing
@testable import MediaFiles
@testable import Screen
@testable import Serve
@testable import Session

/// Sixteen RTSP viewers at once on `gstcam serve` (issue 12): eight gst-launch rtspsrc and eight ffprobe, half
/// over TCP and half over UDP, on the test pattern at 160x120, 30 fps, for 5 s. Each receives ≥ 95 % of the frames
/// sent while it watched, and a photo asked for through the camera's socket (`gstcam capture`) meanwhile
/// arrives. The 10 s figures and the CPU per viewer are measured by scripts/serve-figures, not asserted here.
@Suite(.serialized) struct ServeLoadTests {
    @Test func sixteenViewersGetNearlyEveryFrameWhileAPhotoArrivesThroughTheSocket() throws {
        let serving = try ScreenProcess(["serve", "--pipeline", "test-pattern", "--width", "160", "--height", "120", "--fps", "30",
                                         "--rtsp", "0", "--http", "off", "--json"])
        defer { serving.remove() }
        let url = try serving.servingURL("rtsp://127.0.0.1:")
        var viewers: [(String, ClientProcess)] = []
        for index in 0..<8 {
            let transport = index % 2 == 0 ? "tcp" : "udp"
            viewers.append(("rtspsrc \(index) over \(transport)", try RTSPViewer.gstLaunch(url, protocol: transport, frames: 150)))
            viewers.append(("ffprobe \(index) over \(transport)", try RTSPViewer.ffprobe(url, transport: transport, seconds: 5)))
        }
        Thread.sleep(forTimeInterval: 2.5)
        let started = Date()
        let capture = try runProcess(gstcamBinary, ["capture", "--pipeline", "test-pattern", "--json"], environment: serving.environment())
        let elapsed = Date().timeIntervalSince(started)
        #expect(capture.status == 0 && capture.output.contains("160"), "\(capture.output) \(capture.error)")
        #expect(serving.wait(5) { serving.output.contains(#""event":"photo""#) }, "the photo was taken by the serving session: \(serving.output)")
        print("ServeLoadTests: a photo through the socket with 16 viewers took \(Int(elapsed * 1000)) ms (gstcam capture, process included)")

        RTSPViewer.expectEachReceivedTheStream(viewers, minimumFrames: 110, within: 20)
        #expect(serving.process.isRunning, "\(serving.errors)")
    }
}
