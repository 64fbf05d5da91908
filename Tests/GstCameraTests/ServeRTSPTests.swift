import Foundation
import Testing
@testable import GstCamera

/// `gstcam serve`'s RTSP side (issue 12), read back by real clients: ffprobe and gst-launch's rtspsrc.
@Suite(.serialized) struct ServeRTSPTests {
    @Test func ffprobeSeesH264AtTheSessionSize() async throws {
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let server = CameraServer(operator: CameraOperator(session: session),
                                  configuration: ServeConfiguration(rtspPort: 0, httpPort: nil))
        try server.start()
        defer { server.stop() }
        let url = try #require(server.rtspURL)
        #expect(url.hasPrefix("rtsp://127.0.0.1:") && url.hasSuffix("/camera"))
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-timeout", "10000000", "-rtsp_transport", "tcp", "-select_streams", "v:0",
                                                        "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", url],
                                   environment: environmentWithoutCameras)
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,320,240", "\(probe.error)")
    }
}
