import Foundation
import Testing
import GstCamera

/// `gstcam preview --switch-every`: cycles through the cameras and prints each switch.
@Suite struct SwitchEveryTests {
    @Test func previewCyclesThroughTheCamerasAndReportsEachSwitch() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["VCAM_DEVICES"] = "/dev/video0=uvc;/dev/video4=basic"
        environment["VCAM_STATE_DIR"] = NSTemporaryDirectory() + "vcam-switch-every-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: environment["VCAM_STATE_DIR"]!) }
        // 640x480: the preview default (1920x1080 on uvc) would make each switch slower on a loaded machine.
        // Each interval starts when the previous switch is done, so how many fit in the duration depends on the
        // machine's load: check that it cycles (alternating cameras, each switch reported), not a count.
        let result = try gstcam(["preview", "--sink", "none", "--width", "640", "--height", "480", "--switch-every", "0.6",
                                 "--duration", "3"], environment: environment)
        #expect(result.status == 0, "\(result.error)")
        let switches = result.output.split(separator: "\n").filter { $0.hasPrefix("Camera: ") }
        #expect(switches.count >= 2, "\(result.output)")
        for (index, line) in switches.enumerated() {
            #expect(line.contains(index % 2 == 0 ? "(/dev/video4) in " : "(/dev/video0) in "), "\(result.output)")
        }
        #expect(switches.allSatisfy { $0.hasSuffix(" ms") })
        let bad = try gstcam(["preview", "--switch-every", "0"])
        #expect(bad.status == 64)
        #expect(bad.error.contains("--switch-every: \"0\" is not a number of seconds > 0"))
    }
}
