import Foundation
import Testing
@testable import GstCamera

/// `--codec mjpeg`: the camera's own JPEG frames into Matroska without re-encoding, read by FFmpeg; a camera mode
/// without MJPEG is refused with a message. Private virtual cameras (their own state folder), so no other test's
/// camera is busy: /dev/video0 sends only Motion-JPEG, /dev/video2 only raw frames.
@Suite struct RecordMJPEGTests {
    @Test func theCamerasJPEGsAreRecordedAsTheyAreAndARawModeIsRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/vcam", withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["VCAM_DEVICES"] = "/dev/video0=basic,formats=MJPG,color=e61e1e;/dev/video2=basic,color=1e3ce6"
        environment["VCAM_STATE_DIR"] = folder + "/vcam"
        environment["XDG_RUNTIME_DIR"] = folder

        let path = folder + "/camera.mkv"
        let recorded = try gstcam(["record", "--device", "/dev/video0", "--width", "320", "--height", "240", "--codec", "mjpeg",
                                   "--duration", "1", "-o", path], environment: environment)
        #expect(recorded.status == 0, "\(recorded.error)")
        #expect(recorded.error.contains("not re-encoded"), "\(recorded.error)")
        let probed = try ProbedVideo.read(path)
        #expect(probed.codec == "mjpeg" && probed.width == 320 && probed.height == 240, "\(probed)")
        #expect(probed.frames == 30, "\(probed.frames) frames")
        #expect(try decodeEveryFrame(path).status == 0)
        // The camera's picture: its identity colour (red) in the decoded frames.
        let frames = try decodedFrames(path, width: 320, height: 240)
        let (red, green, blue) = identityColour(try #require(frames.first), width: 320, height: 240)
        #expect(red > 180 && green < 80 && blue < 80, "\(red) \(green) \(blue)")

        let refused = try gstcam(["record", "--device", "/dev/video2", "--width", "320", "--height", "240", "--codec", "mjpeg",
                                  "--duration", "1", "-o", folder + "/raw.mkv"], environment: environment)
        #expect(refused.status == 1)
        #expect(refused.error.contains("/dev/video2 delivers no Motion-JPEG in the mode used"), "\(refused.error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/raw.mkv"))
    }
}
