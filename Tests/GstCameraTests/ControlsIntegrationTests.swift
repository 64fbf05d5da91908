import Foundation
import Testing
@testable import GstCamera

/// Controls set through the library and the CLI, read back from another process (v4l2-ctl) through the
/// virtual camera's shared state, and the CLI's messages and exit statuses.
@Suite(.serialized) struct ControlsIntegrationTests {
    /// `v4l2-ctl -d DEV -C NAME` prints "NAME: VALUE".
    static func readBack(_ name: String, on device: String) throws -> String {
        let result = try VirtualCameras.v4l2ctl("-d", device, "-C", name)
        #expect(result.status == 0, "v4l2-ctl: \(result.standardError)")
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func listsControlsWithV4L2CtlNamesAndValues() throws {
        let device = try VirtualCameras.path(profile: "uvc")
        let controls = try CameraControls(devicePath: device).all()
        let names = controls.map(\.name)
        for name in ["brightness", "contrast", "focus_automatic_continuous", "focus_absolute", "zoom_absolute", "auto_exposure",
                     "exposure_time_absolute"] {
            #expect(names.contains(name), "missing \(name) in \(names)")
        }
        let listed = try VirtualCameras.v4l2ctl("-d", device, "-l")
        for control in controls where control.type != .rectangle && control.type != .bitmask {
            #expect(listed.standardOutput.contains(" \(control.name) "), "v4l2-ctl does not list \(control.name)")
        }
        let exposure = try #require(controls.first { $0.name == "auto_exposure" })
        #expect(exposure.type == .menu)
        #expect(exposure.menu.map(\.name).contains("Manual Mode"))
        #expect(exposure.className == "Camera Controls")
    }

    @Test func aValueSetThroughTheLibraryIsSeenByV4L2Ctl() throws {
        let device = try VirtualCameras.path(profile: "uvc")
        let controls = try CameraControls(devicePath: device)
        let brightness = try controls.control(named: "brightness")
        let target = brightness.minimum + (brightness.maximum - brightness.minimum) / 3
        let applied = try controls.set("brightness", to: String(target))
        #expect(applied.value == .integer(target))
        #expect(try Self.readBack("brightness", on: device) == "brightness: \(target)")
        try controls.set("Brightness", to: .integer(brightness.minimum))
        #expect(try Self.readBack("brightness", on: device) == "brightness: \(brightness.minimum)")
    }

    @Test func setPercentageFromTheCLI() throws {
        let device = try VirtualCameras.path(profile: "uvc")
        let brightness = try CameraControls(devicePath: device).control(named: "brightness")
        let expected = ControlValueParser.value(atPercent: 60, minimum: brightness.minimum, maximum: brightness.maximum, step: brightness.step)
        let result = try VirtualCameras.gstcam("set", "--device", device, "brightness=60%")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "brightness=\(expected)  (asked 60%)\n")
        #expect(try Self.readBack("brightness", on: device) == "brightness: \(expected)")
        let get = try VirtualCameras.gstcam("get", "--device", device, "brightness")
        #expect(get.standardOutput == "brightness=\(expected)\n")
    }

    @Test func menuItemsByNameFromTheCLI() throws {
        let device = try VirtualCameras.path(profile: "uvc")
        let result = try VirtualCameras.gstcam("set", "--device", device, "auto_exposure=manual_mode")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "auto_exposure=1 (Manual Mode)  (asked manual_mode)\n")
        #expect(try Self.readBack("auto_exposure", on: device) == "auto_exposure: 1 (Manual Mode)")
    }

    @Test func unknownNameSuggestsCloseOnes() throws {
        let device = try VirtualCameras.path(profile: "uvc")
        let result = try VirtualCameras.gstcam("set", "--device", device, "brigthness=10")
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "gstcam: \(device) has no control named \"brigthness\". Did you mean: brightness? List them with: gstcam controls\n")
        let get = try VirtualCameras.gstcam("get", "--device", device, "zoom")
        #expect(get.status == 1)
        #expect(get.standardError.contains("Did you mean: zoom_absolute"))
    }

    @Test func outOfRangeGivesTheRange() throws {
        let device = try VirtualCameras.path(profile: "uvc")
        let brightness = try CameraControls(devicePath: device).control(named: "brightness")
        let before = try Self.readBack("brightness", on: device)
        let tooHigh = brightness.maximum + 1
        let result = try VirtualCameras.gstcam("set", "--device", device, "brightness=\(tooHigh)")
        #expect(result.status == 1)
        let step = brightness.step > 1 ? " in steps of \(brightness.step)" : ""
        #expect(result.standardError == "gstcam: \(tooHigh) is out of range for brightness: use \(brightness.minimum)…\(brightness.maximum)\(step), or a percentage (e.g. brightness=50%).\n")
        #expect(try Self.readBack("brightness", on: device) == before)
    }

    @Test func readOnlyControlIsRefused() throws {
        let device = try VirtualCameras.path(profile: "sensor")
        let result = try VirtualCameras.gstcam("set", "--device", device, "auto_focus_status=1")
        #expect(result.status == 1)
        #expect(result.standardError == "gstcam: auto_focus_status on \(device) is read-only.\n")
    }

    @Test func usageErrorsExit64() throws {
        let result = try VirtualCameras.gstcam("set", "brightness")
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("gstcam: \"brightness\" is not NAME=VALUE"))
        #expect(try VirtualCameras.gstcam("get").status == 64)
        #expect(try VirtualCameras.gstcam("controls", "--bogus").status == 64)
    }

    @Test func controlsListingReadsLikeV4L2Ctl() throws {
        let device = try VirtualCameras.path(profile: "uvc")
        let result = try VirtualCameras.gstcam("controls", "--device", device)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("User Controls\n"))
        #expect(result.standardOutput.contains("Camera Controls\n"))
        let brightnessLine = try #require(result.standardOutput.split(separator: "\n").first { $0.hasPrefix("  brightness ") })
        #expect(brightnessLine.contains(" int "))
        #expect(brightnessLine.contains("value "))
        #expect(result.standardOutput.contains("Manual Mode"))
        let json = try VirtualCameras.gstcam("controls", "--device", device, "--json")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        let brightness = try #require(parsed.first { $0["name"] as? String == "brightness" })
        #expect(brightness["id"] as? String == "0x00980900")
        #expect(brightness["type"] as? String == "int")
        #expect(brightness["value"] is Int)
    }

    @Test func aSecondOpenSetsControlsWhileTheDeviceStreams() throws {
        let device = try VirtualCameras.path(profile: "basic")
        let stream = Process()
        stream.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        stream.arguments = ["-q", "v4l2src", "device=\(device)", "num-buffers=60", "!", "fakesink"]
        try stream.run()
        defer { stream.terminate(); stream.waitUntilExit() }
        usleep(500_000)
        let controls = try CameraControls(devicePath: device)
        let brightness = try controls.control(named: "brightness")
        let applied = try controls.set("brightness", to: "100%")
        #expect(applied.value == .integer(brightness.maximum))
        #expect(try Self.readBack("brightness", on: device) == "brightness: \(brightness.maximum)")
        try controls.set("brightness", to: .integer(brightness.defaultValue))
    }
}

/// The camera-app features (torch, focus, exposure, zoom) through the virtual camera profiles.
@Suite(.serialized) struct ControlsFeatureTests {
    @Test func capabilitiesFollowTheProfiles() throws {
        let uvc = try CameraControls(devicePath: try VirtualCameras.path(profile: "uvc")).capabilities()
        #expect(uvc.opticalZoom != nil && uvc.continuousFocus && uvc.manualFocus && uvc.pointFocus && uvc.automaticExposure)
        #expect(uvc.manualExposure != nil && !uvc.torch)
        let sensor = try CameraControls(devicePath: try VirtualCameras.path(profile: "sensor")).capabilities()
        #expect(sensor.torch && sensor.flash && sensor.oneShotFocus)
        let basic = try CameraControls(devicePath: try VirtualCameras.path(profile: "basic")).capabilities()
        #expect(basic.opticalZoom == nil && !basic.torch && !basic.continuousFocus && !basic.manualFocus && !basic.pointFocus)
    }

    @Test func torchOnTheSensorProfileReachesTheDevice() throws {
        let device = try VirtualCameras.path(profile: "sensor")
        let controls = try CameraControls(devicePath: device)
        let on = try controls.setTorch(on: true, level: 1)
        #expect(on.isOn)
        #expect(on.level == 1)
        #expect(try ControlsIntegrationTests.readBack("led_mode", on: device) == "led_mode: 2 (Torch)")
        let off = try controls.setTorch(on: false)
        #expect(!off.isOn)
        #expect(try ControlsIntegrationTests.readBack("led_mode", on: device) == "led_mode: 0 (Off)")
    }

    @Test func torchUnavailableNamesTheDevice() throws {
        let device = try VirtualCameras.path(profile: "basic")
        let controls = try CameraControls(devicePath: device)
        #expect(!controls.hasTorch)
        #expect(throws: CameraError.torchUnavailable(device: device)) { try controls.setTorch(on: true) }
        #expect(CameraError.torchUnavailable(device: device).description == "Torch not available on this camera (\(device)).")
    }

    @Test func manualFocusAndContinuous() async throws {
        let device = try VirtualCameras.path(profile: "uvc")
        let controls = try CameraControls(devicePath: device)
        let lens = try controls.control(named: "focus_absolute")
        let result = try await controls.setFocus(.manual(position: 0.5))
        let expected = CameraControls.value(atFraction: 0.5, of: lens)
        #expect(result == .manual(position: CameraControls.fraction(of: expected, in: lens)))
        #expect(try ControlsIntegrationTests.readBack("focus_automatic_continuous", on: device) == "focus_automatic_continuous: 0")
        #expect(try ControlsIntegrationTests.readBack("focus_absolute", on: device) == "focus_absolute: \(expected)")
        #expect(try await controls.setFocus(.continuous) == .continuous)
        #expect(try ControlsIntegrationTests.readBack("focus_automatic_continuous", on: device) == "focus_automatic_continuous: 1")
    }

    @Test func oneShotFocusReportsReached() async throws {
        let controls = try CameraControls(devicePath: try VirtualCameras.path(profile: "sensor"))
        #expect(try await controls.setFocus(.once(timeout: 3)) == .reached)
        let basic = try CameraControls(devicePath: try VirtualCameras.path(profile: "basic"))
        await #expect(throws: CameraError.focusUnavailable(device: basic.devicePath)) { try await basic.setFocus(.once()) }
    }

    @Test func pointFocusSetsTheRegionInTheControlsCoordinates() async throws {
        let device = try VirtualCameras.path(profile: "uvc")
        let controls = try CameraControls(devicePath: device)
        let roi = try #require(try controls.query(id: ControlID.regionOfInterestRectangle))
        guard case let .success(.rectangle(maximum)) = controls.device.readControl(roi, which: .maximum),
              case let .success(.rectangle(minimum)) = controls.device.readControl(roi, which: .minimum) else {
            Issue.record("the ROI control does not report its minimum and maximum")
            return
        }
        let point = NormalizedPoint(x: 0.25, y: 0.75)
        let result = try await controls.focus(at: point)
        let expected = CameraControls.regionOfInterest(around: point, minimum: minimum, maximum: maximum)
        #expect(result.method == .regionOfInterest)
        #expect(result.rectangle == expected)
        #expect(result.exposurePoint)
        // Read back on a fresh open: the rectangle is in the device, centred on the point.
        let reread = try CameraControls(devicePath: device).control(named: "region_of_interest_rectangle")
        #expect(reread.value == .rectangle(expected))
        let centreX = Double(expected.left - maximum.left) + Double(expected.width) / 2
        #expect(abs(centreX / Double(maximum.width) - 0.25) < 0.01)
        let auto = try CameraControls(devicePath: device).control(id: ControlID.regionOfInterestAuto)?.control.value?.integer ?? 0
        #expect(auto & RegionOfInterestAuto.focus != 0 && auto & RegionOfInterestAuto.exposure != 0)
    }

    @Test func pointFocusWithoutROISaysSo() async throws {
        let basic = try CameraControls(devicePath: try VirtualCameras.path(profile: "basic"))
        let result = try await basic.focus(at: NormalizedPoint(x: 0.5, y: 0.5))
        #expect(result == PointFocusResult(method: .none, rectangle: nil, exposurePoint: false, focus: nil))
    }

    @Test func manualExposureTimeIsClampedAndReadBack() throws {
        let device = try VirtualCameras.path(profile: "uvc")
        let controls = try CameraControls(devicePath: device)
        let time = try controls.control(named: "exposure_time_absolute")
        #expect(try controls.setExposure(.manual(seconds: 0.01)) == .manual(seconds: 0.01))
        #expect(try ControlsIntegrationTests.readBack("auto_exposure", on: device) == "auto_exposure: 1 (Manual Mode)")
        #expect(try ControlsIntegrationTests.readBack("exposure_time_absolute", on: device) == "exposure_time_absolute: 100")
        #expect(try controls.setExposure(.manual(seconds: 1000)) == .manual(seconds: Double(time.maximum) / 10_000))
        #expect(try controls.setExposure(.automatic) == .automatic)
        #expect(try ControlsIntegrationTests.readBack("auto_exposure", on: device) != "auto_exposure: 1 (Manual Mode)")
    }

    @Test func opticalZoomFactorMapsToZoomAbsolute() throws {
        let device = try VirtualCameras.path(profile: "uvc")
        let controls = try CameraControls(devicePath: device)
        let zoom = try #require(try controls.opticalZoom())
        let applied = try controls.setOpticalZoom(factor: 2)
        #expect(abs(applied - 2) < 0.05 || zoom.maximumFactor < 2)
        #expect(try ControlsIntegrationTests.readBack("zoom_absolute", on: device) == "zoom_absolute: \(zoom.controlValue(for: 2))")
        #expect(try controls.setOpticalZoom(factor: 100) == zoom.maximumFactor)
        #expect(try controls.setOpticalZoom(factor: 1) == 1)
        let basic = try CameraControls(devicePath: try VirtualCameras.path(profile: "basic"))
        #expect(throws: CameraError.zoomUnavailable(device: basic.devicePath)) { try basic.setOpticalZoom(factor: 2) }
    }
}
