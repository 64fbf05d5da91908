import Foundation
import Testing
@testable import CameraErrors
@testable import Controls

/// Controls set through the library in this process, read back from another process (v4l2-ctl) through the
/// virtual camera's shared state. Each test puts the controls back to their defaults.
@Suite(.serialized) struct ControlsIntegrationTests {
    /// `v4l2-ctl -d DEV -C NAME` prints "NAME: VALUE".
    static func readBack(_ name: String, on device: String) throws -> String {
        let result = try VirtualCameras.v4l2ctl("-d", device, "-C", name)
        #expect(result.status == 0, "v4l2-ctl: \(result.standardError)")
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func listsControlsWithV4L2CtlNamesAndValues() throws {
        let device = try VirtualCameras.path(profile: "uvc")
        defer { VirtualCameras.resetControls(device) }
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
        defer { VirtualCameras.resetControls(device) }
        let controls = try CameraControls(devicePath: device)
        let brightness = try controls.control(named: "brightness")
        let target = brightness.minimum + (brightness.maximum - brightness.minimum) / 3
        let applied = try controls.set("brightness", to: String(target))
        #expect(applied.value == .integer(target))
        #expect(try Self.readBack("brightness", on: device) == "brightness: \(target)")
        try controls.set("Brightness", to: .integer(brightness.minimum))
        #expect(try Self.readBack("brightness", on: device) == "brightness: \(brightness.minimum)")
    }

    @Test func aSecondOpenSetsControlsWhileTheDeviceStreams() throws {
        let device = try VirtualCameras.path(profile: "basic")
        defer { VirtualCameras.resetControls(device) }
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

extension ControlsIntegrationTests {
/// The camera-app features (torch, focus, exposure, zoom) through the virtual camera profiles; nested, so that
/// it runs serially with the tests above (they share the devices' control state).
@Suite struct Features {
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
        defer { VirtualCameras.resetControls(device) }
        let controls = try CameraControls(devicePath: device)
        let on = try controls.setTorch(on: true, level: 1)
        #expect(on.isOn)
        #expect(on.level == 1)
        #expect(try ControlsIntegrationTests.readBack("led_mode", on: device) == "led_mode: 2 (Torch)")
        let off = try controls.setTorch(on: false)
        #expect(!off.isOn)
        #expect(try ControlsIntegrationTests.readBack("led_mode", on: device) == "led_mode: 0 (Off)")
    }

    @Test func flashIsArmedAndStrobedOnTheSensorProfile() throws {
        let device = try VirtualCameras.path(profile: "sensor")
        defer { VirtualCameras.resetControls(device) }
        let controls = try CameraControls(devicePath: device)
        #expect(controls.hasFlash)
        try controls.setFlash(armed: true)
        #expect(try ControlsIntegrationTests.readBack("led_mode", on: device) == "led_mode: 1 (Flash)")
        try controls.strobe()
        try controls.setFlash(armed: false)
        #expect(try ControlsIntegrationTests.readBack("led_mode", on: device) == "led_mode: 0 (Off)")
        let basic = try CameraControls(devicePath: try VirtualCameras.path(profile: "basic"))
        #expect(!basic.hasFlash)
        #expect(throws: CameraError.flashUnavailable(device: basic.devicePath)) { try basic.strobe() }
    }

    @Test func torchUnavailableNamesTheDevice() throws {
        let device = try VirtualCameras.path(profile: "basic")
        defer { VirtualCameras.resetControls(device) }
        let controls = try CameraControls(devicePath: device)
        #expect(!controls.hasTorch)
        #expect(throws: CameraError.torchUnavailable(device: device)) { try controls.setTorch(on: true) }
        #expect(CameraError.torchUnavailable(device: device).description == "Torch not available on this camera (\(device)).")
    }

    @Test func manualFocusAndContinuous() async throws {
        let device = try VirtualCameras.path(profile: "uvc")
        defer { VirtualCameras.resetControls(device) }
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
        defer { VirtualCameras.resetControls(controls.devicePath) }
        #expect(try await controls.setFocus(.once(timeout: 3)) == .reached)
        let basic = try CameraControls(devicePath: try VirtualCameras.path(profile: "basic"))
        await #expect(throws: CameraError.focusUnavailable(device: basic.devicePath)) { try await basic.setFocus(.once()) }
    }

    @Test func pointFocusSetsTheRegionInTheControlsCoordinates() async throws {
        let device = try VirtualCameras.path(profile: "uvc")
        defer { VirtualCameras.resetControls(device) }
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
        defer { VirtualCameras.resetControls(device) }
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
        defer { VirtualCameras.resetControls(device) }
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
}
