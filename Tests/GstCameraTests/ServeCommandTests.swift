import Foundation
import Testing
@testable import MediaFiles
@testable import Screen
@testable import Serve
@testable import Session

/// `gstcam serve` on the command line (issue 12): refusals, and a served virtual camera reached by ffprobe and
/// by `gstcam capture` through the camera's socket.
@Suite(.serialized) struct ServeCommandTests {
    @Test func anAddressBeyondThisMachineNeedsATokenOrAUser() throws {
        let open = try gstcam(["serve", "--pipeline", "test-pattern", "--bind", "0.0.0.0"])
        #expect(open.status == 64)
        #expect(open.error.contains("without a password") && open.error.contains("--token"), "\(open.error)")
        let both = try gstcam(["serve", "--token", "t", "--user", "a:b"])
        #expect(both.status == 64 && both.error.contains("either --token or --user"), "\(both.error)")
        let badUser = try gstcam(["serve", "--user", "nopassword"])
        #expect(badUser.status == 64 && badUser.error.contains("USER:PASSWORD"), "\(badUser.error)")
        let nothing = try gstcam(["serve", "--rtsp", "off", "--http", "off"])
        #expect(nothing.status == 64, "\(nothing.error)")
        let help = try gstcam(["help", "serve"])
        #expect(help.status == 0 && help.output.contains("--bind ADDR"))
    }

    @Test func servesAVirtualCameraWhileCaptureGoesThroughIt() throws {
        let serving = try ScreenProcess(["serve", "--device", "/dev/video0", "--width", "640", "--height", "480",
                                         "--rtsp", "0", "--http", "off", "--json"], devices: "/dev/video0=uvc,color=e61e1e")
        defer { serving.remove() }
        let url = try serving.servingURL("rtsp://127.0.0.1:")
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-timeout", "10000000", "-rtsp_transport", "tcp",
                                                        "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", url],
                                   environment: environmentWithoutCameras)
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,640,480", "\(probe.error)")
        // The camera is busy serving, so a capture for it is taken by the serving session.
        let capture = try runProcess(gstcamBinary, ["capture", "--device", "/dev/video0", "--json"],
                                     environment: serving.environment(devices: "/dev/video0=uvc,color=e61e1e"))
        #expect(capture.status == 0, "\(capture.error)")
        #expect(serving.wait(5) { serving.output.contains(#""event":"photo""#) }, "\(serving.output)")
        kill(serving.process.processIdentifier, SIGINT)
        #expect(serving.exitStatus(within: 10) == 130, "\(serving.errors)")
    }
}
