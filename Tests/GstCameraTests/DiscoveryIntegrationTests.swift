import Foundation
import Testing
@testable import GstCamera

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
            #expect(camera.formats.contains { $0.pixelFormat == .yuyv })
            #expect(camera.formats.contains { $0.pixelFormat == .nv12 })
            let yuyv = try #require(camera.formats.first { $0.pixelFormat == .yuyv })
            #expect(yuyv.sizes.contains { $0.width == 640 && $0.height == 480 && $0.framesPerSecond.contains(30) })
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
            #expect(formats.compactMap { $0["fourcc"] as? String }.contains("YUYV"))
            let sizes = try #require(formats.first?["sizes"] as? [[String: Any]])
            #expect(sizes.first?["fps"] as? [Double] == [30, 15])
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
