import Foundation
import Testing
@testable import CameraErrors
@testable import Cameras
@testable import Controls

/// Discovery against the virtual cameras: what `gstcam devices` and the library report.
@Suite(.serialized) struct DiscoveryIntegrationTests {
    @Test func listsEveryVirtualCameraWithItsIdentityAndFormats() throws {
        let cameras = CameraDiscovery.cameras()
        let expected = VirtualCameras.devices.map(\.path).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        #expect(!expected.isEmpty, "VCAM_DEVICES is not set; run the tests with scripts/test")
        #expect(cameras.map(\.path) == expected)
        #expect(cameras.map(\.index) == Array(cameras.indices))
        for camera in cameras {
            #expect(camera.problem == nil, "\(camera.path): \(camera.problem?.description ?? "")")
            #expect(!camera.name.isEmpty)
            #expect(!camera.driver.isEmpty)
            #expect(!camera.busInfo.isEmpty)
            #expect(VirtualCameras.formatsMatch(camera.formats.map(\.pixelFormat.description), camera.path),
                    "\(camera.path): \(camera.formats.map(\.pixelFormat))")
            let first = try #require(camera.formats.first)
            let sizes = VirtualCameras.configuredSizes(of: camera.path) ?? ["640x480"]
            // vivid's table tops at 25 fps at 640x480 (docs/virtual-camera.md); every other profile has 30 there.
            let rate: Double = VirtualCameras.profile(of: camera.path) == "vivid" ? 25 : 30
            #expect(sizes.allSatisfy { size in first.sizes.contains { "\($0.width)x\($0.height)" == size && $0.framesPerSecond.contains(rate) } })
            #expect(camera.nodes.contains(CameraNode(path: camera.path, kind: .capture)))
            #expect(!camera.isInfrared)
        }
    }

    @Test func featuresFollowTheProfiles() throws {
        let cameras = CameraDiscovery.cameras()
        let uvc = try #require(cameras.first { $0.path == (try? VirtualCameras.path(profile: "uvc")) })
        #expect(uvc.features.zoom && uvc.features.manualFocus && uvc.features.autoFocus && uvc.features.regionOfInterest)
        #expect(uvc.features.exposure)
        #expect(!uvc.features.torch)
        let sensor = try #require(cameras.first { $0.path == (try? VirtualCameras.path(profile: "sensor")) })
        #expect(sensor.features.torch && sensor.features.flash && sensor.features.oneShotFocus)
        let basic = try #require(cameras.first { $0.path == (try? VirtualCameras.path(profile: "basic")) })
        #expect(!basic.features.zoom && !basic.features.torch && !basic.features.manualFocus && !basic.features.autoFocus)
    }

    @Test func selectorsPickVirtualCameras() throws {
        let sensorPath = try VirtualCameras.path(profile: "sensor")
        #expect(try CameraDiscovery.camera(matching: sensorPath).path == sensorPath)
        #expect(try CameraDiscovery.camera(matching: "virtual sensor").path == sensorPath)
        #expect(try CameraDiscovery.camera(matching: nil).index == 0)
        #expect(throws: CameraError.self) { try CameraDiscovery.camera(matching: "virtual") }
        #expect(throws: CameraError.self) { try CameraDiscovery.camera(matching: "no such camera") }
    }

    @Test func devicesJSONParsesAndMatchesTheLibrary() throws {
        let result = try VirtualCameras.gstcam("devices", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        let cameras = CameraDiscovery.cameras()
        #expect(parsed.count == cameras.count)
        for (json, camera) in zip(parsed, cameras) {
            #expect(json["path"] as? String == camera.path)
            #expect(json["name"] as? String == camera.name)
            #expect(json["index"] as? Int == camera.index)
            #expect(json["accessible"] as? Bool == true)
            #expect(json["problem"] is NSNull)
            #expect(json["stableId"] is NSNull)
            let formats = try #require(json["formats"] as? [[String: Any]])
            #expect(VirtualCameras.formatsMatch(formats.compactMap { $0["fourcc"] as? String }, camera.path))
            let sizes = try #require(formats.first?["sizes"] as? [[String: Any]])
            // The first size's rates, fastest first: vivid's 320x180 runs 60 … 1 fps (12.5 among them).
            let rates: [Double] = VirtualCameras.profile(of: camera.path) == "vivid" ? [60, 50, 40, 30, 25, 15, 12.5, 10, 5, 4, 2, 1] : [30, 15]
            #expect(sizes.first?["fps"] as? [Double] == rates, "\(camera.path)")
            #expect((json["features"] as? [String: Any])?["torch"] is Bool)
        }
    }

    @Test func devicesHumanOutputNamesEachCamera() throws {
        let result = try VirtualCameras.gstcam("devices")
        #expect(result.status == 0)
        for camera in CameraDiscovery.cameras() {
            #expect(result.standardOutput.contains("[\(camera.index)] \(camera.path)"))
            #expect(result.standardOutput.contains(camera.name))
        }
        #expect(result.standardOutput.contains("YUYV"))
        #expect(result.standardOutput.contains("640x480"))
        #expect(result.standardOutput.contains("30, 15 fps"))
    }

    @Test func noCameraIsAnEmptyListNotAnError() throws {
        // An empty VCAM_DEVICES: the virtual camera then adds nothing to /dev (and this machine has no camera).
        let result = try VirtualCameras.run("/usr/bin/env", ["VCAM_DEVICES=", VirtualCameras.binDirectory + "/gstcam", "devices", "--json"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "[]\n")
        let human = try VirtualCameras.run("/usr/bin/env", ["VCAM_DEVICES=", VirtualCameras.binDirectory + "/gstcam", "devices"])
        #expect(human.status == 0)
        #expect(human.standardOutput.hasPrefix("No camera found."))
        let controls = try VirtualCameras.run("/usr/bin/env", ["VCAM_DEVICES=", VirtualCameras.binDirectory + "/gstcam", "controls"])
        #expect(controls.status == 1)
        #expect(controls.standardError.hasPrefix("gstcam: No camera found"))
    }
}

/// Discovery of unusual setups, each in a subprocess with its own VCAM_DEVICES.
@Suite struct DiscoveryLayoutTests {
    @Test func nodesOfOnePhysicalDeviceAreGroupedAndIRIsMarked() throws {
        var cameras = try VirtualCameras.Isolated()
        defer { cameras.remove() }
        cameras.devices = "/dev/video0=uvc,card=Integrated Camera,bus=usb-0000:00:14.0-5;"
            + "/dev/video2=basic,card=Integrated IR Camera,bus=usb-0000:00:14.0-5;/dev/video6=sensor"
        let json = try cameras.gstcam("devices", "--json")
        #expect(json.status == 0, "\(json.standardError)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(parsed.map { $0["path"] as? String } == ["/dev/video0", "/dev/video2", "/dev/video6"])
        #expect(parsed.map { $0["infrared"] as? Bool } == [false, true, false])
        let grouped = parsed[0]["nodes"] as? [[String: String]]
        #expect(grouped == [["path": "/dev/video0", "kind": "capture"], ["path": "/dev/video2", "kind": "capture"]])
        #expect(parsed[2]["nodes"] as? [[String: String]] == [["path": "/dev/video6", "kind": "capture"]])

        let human = try cameras.gstcam("devices")
        #expect(human.standardOutput.hasPrefix("""
            Integrated Camera (uvcvideo, usb-0000:00:14.0-5)
              nodes: /dev/video0 (capture), /dev/video2 (capture)
              [0] /dev/video0

            """))
        #expect(human.standardOutput.contains("  [1] /dev/video2  infrared\n"))
        #expect(human.standardOutput.contains("\nVirtual Sensor Camera (video6) (vcam-sensor, "))

        let ir = try cameras.gstcam("controls", "--device", "ir camera")
        #expect(ir.status == 0, "\(ir.standardError)")
        let ambiguous = try cameras.gstcam("controls", "--device", "integrated")
        #expect(ambiguous.status == 1)
        #expect(ambiguous.standardError == """
            gstcam: "integrated" matches more than one camera; be more specific:
              0: /dev/video0 — Integrated Camera
              1: /dev/video2 — Integrated IR Camera [IR]

            """)
    }

    @Test func stableLinksNameTheNodeTheyPointAt() throws {
        let base = NSTemporaryDirectory() + "gstcam-v4l-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/by-id", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/by-path", withIntermediateDirectories: true)
        let sensor = try VirtualCameras.path(profile: "sensor")
        try FileManager.default.createSymbolicLink(atPath: base + "/by-id/usb-Vcam_Sensor-video-index0", withDestinationPath: sensor)
        try FileManager.default.createSymbolicLink(atPath: base + "/by-path/platform-vcam-video-index0", withDestinationPath: sensor)
        let cameras = CameraDiscovery.cameras(deviceDirectory: "/dev", linkDirectories: [base + "/by-id", base + "/by-path"])
        let found = try #require(cameras.first { $0.path == sensor })
        #expect(found.stableID == base + "/by-id/usb-Vcam_Sensor-video-index0")
        #expect(found.stablePath == base + "/by-path/platform-vcam-video-index0")
        #expect(cameras.filter { $0.stableID != nil }.count == 1)
        #expect(try CameraSelector.select("usb-Vcam_Sensor-video-index0", from: cameras).path == sensor)
        #expect(try CameraSelector.select(base + "/by-path/platform-vcam-video-index0", from: cameras).path == sensor)
    }
}

/// Opening something that is not a camera.
@Suite struct DiscoveryOpenErrorTests {
    @Test func aMissingPathListsTheCamerasThatExist() {
        #expect(throws: CameraError.noSuchDevice(path: "/dev/video9", available: CameraDiscovery.cameras().map(\.summary))) {
            try CameraControls(cameraMatching: "/dev/video9")
        }
        let text = CameraError.noSuchDevice(path: "/dev/video9", available: CameraDiscovery.cameras().map(\.summary)).description
        #expect(text.contains("/dev/video9 does not exist. Cameras on this machine:\n  0: /dev/video0"))
    }

    @Test func aFileThatIsNotV4L2IsNotACaptureDevice() {
        #expect(throws: CameraError.notCaptureDevice(path: "/dev/null", reason: "not a V4L2 device")) {
            try CameraControls(devicePath: "/dev/null")
        }
    }
}
