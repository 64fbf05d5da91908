import Foundation
import Testing
@testable import CameraErrors

/// Faults injected through the virtual camera's state directory (docs/virtual-camera.md): each test runs gstcam
/// in a subprocess with a private VCAM_STATE_DIR (`VirtualCameras.Isolated`), so the fault touches no device other tests use.
@Suite struct ControlsFaultTests {
    @Test func aForbiddenCameraIsListedWithTheReason() throws {
        let cameras = try VirtualCameras.Isolated(files: ["video4/deny": ""])
        defer { cameras.remove() }
        let json = try cameras.gstcam("devices", "--json")
        #expect(json.status == 0, "\(json.standardError)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(parsed.map { $0["path"] as? String } == ["/dev/video0", "/dev/video2", "/dev/video4"])
        let denied = try #require(parsed.last)
        #expect(denied["accessible"] as? Bool == false)
        #expect(denied["problem"] as? String == CameraError.permissionDenied(path: "/dev/video4").description)
        #expect((denied["formats"] as? [Any])?.isEmpty == true)
        #expect(parsed.first?["accessible"] as? Bool == true)

        let human = try cameras.gstcam("devices")
        #expect(human.standardOutput.contains("[2] /dev/video4\n      cannot use it: Permission denied opening /dev/video4."))

        let controls = try cameras.gstcam("controls", "--device", "2")
        #expect(controls.status == 1)
        #expect(controls.standardError == "gstcam: \(CameraError.permissionDenied(path: "/dev/video4"))\n")
    }

    @Test func driverErrnosOfSetBecomeControlErrors() throws {
        let cases: [(errno: String, message: String)] = [
            ("EBUSY", CameraError.deviceBusy(path: "/dev/video0", holder: nil).description),
            ("ERANGE", CameraError.controlOutOfRange(name: "brightness", value: "10", minimum: -64, maximum: 64, step: 1).description),
            ("EACCES", CameraError.controlReadOnly(name: "brightness", device: "/dev/video0").description),
            ("EINVAL", CameraError.controlBadValue(name: "brightness", value: "10", expected: "a value in -64…64").description),
            ("EIO", CameraError.deviceFailure(path: "/dev/video0", operation: "VIDIOC_S_EXT_CTRLS", errno: EIO).description),
            ("ENODEV", CameraError.deviceGone(path: "/dev/video0").description),
        ]
        for (code, message) in cases {
            let cameras = try VirtualCameras.Isolated(files: ["video0/fail-ioctl": "S_EXT_CTRLS \(code)"])
            defer { cameras.remove() }
            let result = try cameras.gstcam("set", "--device", "/dev/video0", "brightness=10")
            #expect(result.status == 1, "\(code)")
            #expect(result.standardError == "gstcam: \(message)\n", "\(code)")
        }
    }

    @Test func aMissingPathListsTheCameras() throws {
        let cameras = try VirtualCameras.Isolated()
        defer { cameras.remove() }
        let result = try cameras.gstcam("controls", "--device", "/dev/video9")
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("gstcam: /dev/video9 does not exist. Cameras on this machine:\n  0: /dev/video0 — Virtual UVC Camera (video0)\n"))
        let ambiguous = try cameras.gstcam("get", "--device", "virtual", "brightness")
        #expect(ambiguous.status == 1)
        #expect(ambiguous.standardError.hasPrefix("gstcam: \"virtual\" matches more than one camera; be more specific:\n  0: /dev/video0"))
    }
}

extension ControlsFaultTests {
    @Test func aControlThatCannotBeReadDoesNotHideTheOthers() throws {
        let cameras = try VirtualCameras.Isolated(files: ["video0/fail-ioctl": "G_EXT_CTRLS EIO"])
        defer { cameras.remove() }
        let result = try cameras.gstcam("controls", "--device", "/dev/video0", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(parsed.first?["name"] as? String == "brightness")
        #expect(parsed.first?["value"] is NSNull)
        #expect(parsed.dropFirst().allSatisfy { !($0["value"] is NSNull) })
        let get = try VirtualCameras.Isolated(files: ["video0/fail-ioctl": "G_EXT_CTRLS EIO"])
        defer { get.remove() }
        let failed = try get.gstcam("get", "--device", "/dev/video0", "brightness")
        #expect(failed.status == 1)
        #expect(failed.standardError == "gstcam: VIDIOC_G_EXT_CTRLS on /dev/video0 failed: Input/output error (errno 5).\n")
    }
}

extension ControlsFaultTests {
    @Test func anUnpluggedCameraIsNotListedAndCannotBeChosen() throws {
        let cameras = try VirtualCameras.Isolated(files: ["video2/unplugged": ""])
        defer { cameras.remove() }
        let result = try cameras.gstcam("devices", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(parsed.map { $0["path"] as? String } == ["/dev/video0", "/dev/video4"])
        #expect(parsed.map { $0["index"] as? Int } == [0, 1])
        let gone = try cameras.gstcam("controls", "--device", "/dev/video2")
        #expect(gone.status == 1)
        #expect(gone.standardError.hasPrefix("gstcam: /dev/video2 does not exist. Cameras on this machine:\n  0: /dev/video0"))
    }
}
