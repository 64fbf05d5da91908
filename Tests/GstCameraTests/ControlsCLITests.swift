import Foundation
import Testing
import GstCamera

/// `gstcam set/get/controls` as a user runs them: exact output, messages and exit statuses, with the value read
/// back by v4l2-ctl. Each test has a private virtual-camera state (uvc /dev/video0, sensor /dev/video2, basic
/// /dev/video4), so the tests can run in parallel with anything else.
@Suite struct ControlsCLITests {
    static func readBack(_ name: String, on device: String, in cameras: VirtualCameras.Isolated) throws -> String {
        let result = try cameras.v4l2ctl("-d", device, "-C", name)
        #expect(result.status == 0, "v4l2-ctl: \(result.standardError)")
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func setPercentage() throws {
        let cameras = try VirtualCameras.Isolated()
        defer { cameras.remove() }
        // brightness is -64…64 on the uvc profile: 60% is -64 + round(128 × 0.6) = 13.
        let result = try cameras.gstcam("set", "--device", "/dev/video0", "brightness=60%")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "brightness=13  (asked 60%)\n")
        #expect(try Self.readBack("brightness", on: "/dev/video0", in: cameras) == "brightness: 13")
        let get = try cameras.gstcam("get", "--device", "0", "brightness")
        #expect(get.status == 0)
        #expect(get.standardOutput == "brightness=13\n")
    }

    @Test func severalAtOnceWithMenuNamesAndSwitches() throws {
        let cameras = try VirtualCameras.Isolated()
        defer { cameras.remove() }
        let result = try cameras.gstcam("set", "-d", "/dev/video0", "auto_exposure=manual_mode", "exposure_time_absolute=100",
                                        "focus_automatic_continuous=off", "focus_absolute=50%")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == """
            auto_exposure=1 (Manual Mode)  (asked manual_mode)
            exposure_time_absolute=100
            focus_automatic_continuous=false  (asked off)
            focus_absolute=128  (asked 50%)

            """)
        #expect(try Self.readBack("auto_exposure", on: "/dev/video0", in: cameras) == "auto_exposure: 1 (Manual Mode)")
        #expect(try Self.readBack("exposure_time_absolute", on: "/dev/video0", in: cameras) == "exposure_time_absolute: 100")
        #expect(try Self.readBack("focus_automatic_continuous", on: "/dev/video0", in: cameras) == "focus_automatic_continuous: 0")
        #expect(try Self.readBack("focus_absolute", on: "/dev/video0", in: cameras) == "focus_absolute: 128")
        let button = try cameras.gstcam("set", "-d", "/dev/video2", "auto_focus_start=1")
        #expect(button.standardOutput == "auto_focus_start: pressed\n")
    }

    @Test func unknownNameSuggestsCloseOnes() throws {
        let cameras = try VirtualCameras.Isolated()
        defer { cameras.remove() }
        let result = try cameras.gstcam("set", "--device", "/dev/video0", "brigthness=10")
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "gstcam: /dev/video0 has no control named \"brigthness\". Did you mean: brightness? List them with: gstcam controls\n")
        let get = try cameras.gstcam("get", "--device", "/dev/video0", "zoom")
        #expect(get.status == 1)
        #expect(get.standardError == "gstcam: /dev/video0 has no control named \"zoom\". Did you mean: zoom_absolute? List them with: gstcam controls\n")
    }

    @Test func outOfRangeGivesTheRangeAndChangesNothing() throws {
        let cameras = try VirtualCameras.Isolated()
        defer { cameras.remove() }
        let result = try cameras.gstcam("set", "--device", "/dev/video0", "brightness=65")
        #expect(result.status == 1)
        #expect(result.standardError == "gstcam: 65 is out of range for brightness: use -64…64, or a percentage (e.g. brightness=50%).\n")
        #expect(try Self.readBack("brightness", on: "/dev/video0", in: cameras) == "brightness: 0")
        let percent = try cameras.gstcam("set", "--device", "/dev/video0", "brightness=101%")
        #expect(percent.status == 1)
        #expect(percent.standardError == "gstcam: 101% is out of range for brightness: use -64…64, or a percentage (e.g. brightness=50%).\n")
        let menu = try cameras.gstcam("set", "--device", "/dev/video0", "auto_exposure=sport")
        #expect(menu.status == 1)
        #expect(menu.standardError == "gstcam: \"sport\" is not a valid value for auto_exposure: expected one of: manual_mode (1), aperture_priority_mode (3).\n")
    }

    @Test func readOnlyControlIsRefused() throws {
        let cameras = try VirtualCameras.Isolated()
        defer { cameras.remove() }
        let result = try cameras.gstcam("set", "--device", "/dev/video2", "auto_focus_status=1")
        #expect(result.status == 1)
        #expect(result.standardError == "gstcam: auto_focus_status on /dev/video2 is read-only.\n")
    }

    @Test func usageErrorsExit64() throws {
        let result = try VirtualCameras.gstcam("set", "brightness")
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("gstcam: \"brightness\" is not NAME=VALUE"))
        let spaced = try VirtualCameras.gstcam("set", "contrast=10", "brightness", "200")
        #expect(spaced.status == 64)
        #expect(spaced.standardError.hasPrefix(
            "gstcam: \"brightness 200\": write NAME=VALUE without spaces, as in gstcam set brightness=200\n"), "\(spaced.standardError)")
        #expect(try VirtualCameras.gstcam("get").status == 64)
        #expect(try VirtualCameras.gstcam("controls", "--bogus").status == 64)
        let help = try VirtualCameras.gstcam("set", "--help")
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("USAGE: gstcam set [--device CAMERA] NAME=VALUE"))
    }

    @Test func controlsListingReadsLikeV4L2Ctl() throws {
        let cameras = try VirtualCameras.Isolated()
        defer { cameras.remove() }
        let result = try cameras.gstcam("controls", "--device", "/dev/video2")
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "User Controls")
        #expect(lines.contains("Camera Controls"))
        #expect(lines.contains("Flash Controls"))
        #expect(lines.contains { $0.hasPrefix("  brightness ") && $0.contains(" int ") && $0.contains("-64…64") && $0.hasSuffix("value 0 (50%)") })
        #expect(lines.contains { $0.hasPrefix("  auto_focus_status ") && $0.hasSuffix("[read-only, volatile]") })
        #expect(lines.contains { $0.hasPrefix("  led_mode ") && $0.hasSuffix("value 0 (Off)") })
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces) == "*0: Off   1: Flash   2: Torch" })
        let json = try cameras.gstcam("controls", "--device", "/dev/video2", "--json")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        let brightness = try #require(parsed.first { $0["name"] as? String == "brightness" })
        #expect(brightness["id"] as? String == "0x00980900")
        #expect(brightness["type"] as? String == "int")
        #expect(brightness["value"] as? Int == 0)
        #expect(brightness["class"] as? String == "User Controls")
        let ledMode = try #require(parsed.first { $0["name"] as? String == "led_mode" })
        #expect((ledMode["menu"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Off", "Flash", "Torch"])
        let status = try #require(parsed.first { $0["name"] as? String == "auto_focus_status" })
        #expect(status["flags"] as? [String] == ["read-only", "volatile"])
        let start = try #require(parsed.first { $0["name"] as? String == "auto_focus_start" })
        #expect(start["value"] is NSNull)
    }

    /// The mean luma of the last of three 320x240 YUYV frames streamed from `device`.
    static func meanLuma(of device: String, in cameras: VirtualCameras.Isolated) throws -> Double {
        let file = cameras.stateDirectory + "/frames-\(UUID().uuidString).yuv"
        let result = try cameras.run("/usr/bin/gst-launch-1.0", [
            "-q", "v4l2src", "device=\(device)", "num-buffers=3", "!", "video/x-raw,format=YUY2,width=320,height=240",
            "!", "filesink", "location=\(file)",
        ])
        #expect(result.status == 0, "gst-launch: \(result.standardError)")
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: file)))
        let frame = bytes.suffix(320 * 240 * 2)
        try #require(frame.count == 320 * 240 * 2)
        let luma = stride(from: frame.startIndex, to: frame.endIndex, by: 2).map { Double(frame[$0]) }
        return luma.reduce(0, +) / Double(luma.count)
    }

    @Test func torchSetFromTheCLIBrightensTheFrames() throws {
        let cameras = try VirtualCameras.Isolated()
        defer { cameras.remove() }
        let dark = try Self.meanLuma(of: "/dev/video2", in: cameras)
        let result = try cameras.gstcam("set", "-d", "/dev/video2", "led_mode=torch", "torch_intensity=100%")
        #expect(result.standardOutput == "led_mode=2 (Torch)  (asked torch)\ntorch_intensity=100  (asked 100%)\n")
        let lit = try Self.meanLuma(of: "/dev/video2", in: cameras)
        #expect(lit > dark + 20, "mean luma \(dark) → \(lit)")
    }
}
