import Foundation
import Glibc
import Testing
@testable import MediaFiles
@testable import Screen

/// A session puts back the controls it changed when it ends — normal exit, error, SIGTERM — while `gstcam set`
/// changes a camera for good (issue 10). On /dev/video2 (the sensor profile: torch, focus, exposure).
@Suite(.serialized) struct ControlRestoreTests {
    static let device = "/dev/video2"
    static let watched = ["brightness", "contrast", "led_mode", "torch_intensity", "focus_automatic_continuous",
                          "focus_absolute", "auto_exposure", "exposure_time_absolute"]

    /// The values as v4l2-ctl (another program, through the virtual camera's shared state) reads them.
    private func readBack() throws -> [String: String] {
        let result = try runProcess("/usr/bin/v4l2-ctl", ["-d", Self.device, "-C", Self.watched.joined(separator: ",")])
        var values: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 {
                values[String(parts[0])] = String(parts[1].trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
            }
        }
        #expect(values.count == Self.watched.count, "v4l2-ctl: \(result.output) \(result.error)")
        return values
    }

    @Test func captureWithTorchFocusExposureAndSetLeavesTheCameraAsItWas() throws {
        let before = try readBack()
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let capture = try gstcam(["capture", "--device", Self.device, "--torch", "on", "--focus", "manual:0.4",
                                  "--exposure", "manual:0.01", "--set", "brightness=10", "--set", "contrast=50",
                                  "-o", folder + "/a.jpg"])
        #expect(capture.status == 0, "\(capture.error)")
        // They were changed during the session …
        #expect(capture.error.contains("Torch: on") && capture.error.contains("Focus: manual")
                && capture.error.contains("Exposure: manual") && capture.error.contains("brightness=10"), "\(capture.error)")
        // … and are back now.
        #expect(try readBack() == before)
    }

    @Test func aFailingSessionRestoresToo() throws {
        let before = try readBack()
        // --set applies, then the session fails: a photo into a folder that does not exist.
        let capture = try gstcam(["capture", "--device", Self.device, "--torch", "on", "--set", "brightness=-20",
                                  "-o", "/nonexistent/folder/a.jpg"])
        #expect(capture.status == 1, "\(capture.error)")
        #expect(try readBack() == before)
    }

    @Test func sigtermOfAPreviewRestores() throws {
        let before = try readBack()
        let preview = Process()
        preview.executableURL = URL(fileURLWithPath: gstcamBinary)
        preview.arguments = ["preview", "--sink", "none", "--duration", "30", "--device", Self.device,
                             "--torch", "on", "--set", "brightness=30", "--exposure", "manual:0.02"]
        preview.standardOutput = FileHandle.nullDevice
        preview.standardError = FileHandle.nullDevice
        try preview.run()
        defer { killAndWait(preview) }
        var changed = false
        for _ in 0..<100 where !changed {
            let now = try readBack()
            changed = now["led_mode"] == "2" && now["brightness"] == "30" && now["auto_exposure"] == "1"
            if !changed { usleep(100_000) }
        }
        #expect(changed, "the preview never applied its settings")
        kill(preview.processIdentifier, SIGTERM)
        preview.waitUntilExit()
        #expect(preview.terminationStatus == 130)
        #expect(try readBack() == before)
    }

    @Test func theScreensTorchKeyIsPutBackWhenTheSessionStops() async throws {
        let before = try readBack()
        let session = try await startCamera(Self.device)
        let screenOperator = CameraOperator(session: session, library: PhotoLibrary(directory: NSTemporaryDirectory()))
        let outcome = await screenOperator.perform(.toggleTorch)
        #expect(outcome.message.hasPrefix("Torch on"), "\(outcome.message)")
        #expect(try readBack()["led_mode"] == "2")
        session.stop()
        #expect(try readBack() == before)
    }

    @Test func gstcamSetStaysSet() throws {
        let before = try readBack()
        defer { _ = try? gstcam(["set", "--device", Self.device, "brightness=\(before["brightness"] ?? "0")"]) }
        let set = try gstcam(["set", "--device", Self.device, "brightness=12"])
        #expect(set.status == 0, "\(set.error)")
        #expect(try readBack()["brightness"] == "12")
        // A later session that changes something else leaves it as `set` made it.
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let capture = try gstcam(["capture", "--device", Self.device, "--set", "contrast=60", "-o", folder + "/b.jpg"])
        #expect(capture.status == 0, "\(capture.error)")
        let after = try readBack()
        #expect(after["brightness"] == "12" && after["contrast"] == before["contrast"], "\(after)")
    }
}
