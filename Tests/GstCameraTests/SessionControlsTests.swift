import Foundation
import Testing
@testable import CameraErrors
@testable import Controls
@testable import GStreamer
@testable import Session

/// Zoom, torch, flash and start-up controls of a running session on the virtual cameras (video0 uvc with
/// zoom_absolute 100…500, video2 sensor with a flash LED, video4 basic with neither).
@Suite(.serialized) struct SessionControlsTests {
    private func start(_ profile: String, _ configure: (inout CameraConfiguration) -> Void = { _ in }) async throws -> CameraSession {
        let path = try VirtualCameras.path(profile: profile)
        VirtualCameras.resetControls(path)
        var configuration = CameraConfiguration(device: path, width: 640, height: 480)
        configure(&configuration)
        let session = try CameraSession(configuration: configuration)
        try await session.start()
        return session
    }

    /// A control's value as another process (v4l2-ctl) reads it.
    private func readBack(_ name: String, on path: String) throws -> String {
        let output = try VirtualCameras.v4l2ctl("-d", path, "-C", name)
        // "zoom_absolute: 300", or for menus "led_mode: 2 (Torch)": the number.
        let value = output.standardOutput.split(separator: ":").dropFirst().first ?? ""
        return value.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
    }

    private func crop(of session: CameraSession) -> [Int32] {
        guard let zoom = session.shared.withLock({ $0.pipeline })?.pipeline.child(named: "zoom") else { return [] }
        return ["left", "right", "top", "bottom"].map { zoom.int($0) }
    }

    /// Mean brightness of the scene (below the identity band, above the stamp rows) of a frame.
    private func sceneBrightness(_ frame: Frame) -> Double {
        var total = 0, count = 0
        for y in stride(from: frame.height / 4, to: frame.height * 3 / 4, by: 7) {
            for x in stride(from: 0, to: frame.width, by: 7) {
                let (r, g, b) = frame.rgb(x: x, y: y)
                total += Int(r) + Int(g) + Int(b)
                count += 3
            }
        }
        return Double(total) / Double(count)
    }

    private func nextFrame(_ session: CameraSession, after number: Int) async -> Frame? {
        for await frame in session.frames() where frame.number > number { return frame }
        return nil
    }

    @Test func opticalZoomComesFirstThenTheCropTakesOver() async throws {
        let session = try await start("uvc")
        defer { session.stop(); VirtualCameras.resetControls(session.configuration.device!) }
        let path = session.configuration.device!
        let optical = try session.setZoom(Zoom(factor: 3))
        #expect(optical.factor == 3 && optical.opticalFactor == 3)
        #expect(try readBack("zoom_absolute", on: path) == "300")
        try await Task.sleep(for: .milliseconds(150))
        #expect(crop(of: session) == [0, 0, 0, 0])
        let hybrid = try session.setZoom(Zoom(factor: 10))
        #expect(hybrid.factor == 10 && hybrid.opticalFactor == 5 && hybrid.digitalFactor == 2)
        #expect(try readBack("zoom_absolute", on: path) == "500")
        try await Task.sleep(for: .milliseconds(150))
        #expect(crop(of: session) == [160, 160, 120, 120])
        #expect(hybrid.description == "10× (optical 5×, digital 2×)")
    }

    @Test func torchIsUnavailableOnABasicCameraAndBrightensTheSensorCamera() async throws {
        let basic = try await start("basic")
        #expect(throws: CameraError.torchUnavailable(device: basic.configuration.device!)) {
            try basic.controls().setTorch(on: true)
        }
        basic.stop()
        let session = try await start("sensor")
        defer { session.stop(); VirtualCameras.resetControls(session.configuration.device!) }
        let dark = try #require(await nextFrame(session, after: 3))
        let state = try session.controls().setTorch(on: true)
        #expect(state.isOn)
        #expect(try readBack("led_mode", on: session.configuration.device!) == "2")
        let lit = try #require(await nextFrame(session, after: dark.number + 3))
        #expect(sceneBrightness(lit) > sceneBrightness(dark) + 20, "torch: \(sceneBrightness(dark)) → \(sceneBrightness(lit))")
    }

    @Test func aFlashPhotoIsBrighterAndNeedsAFlash() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await start("sensor")
        defer { session.stop(); VirtualCameras.resetControls(session.configuration.device!) }
        let plain = try await session.capturePhoto(to: folder + "/plain.png")
        let flash = try await session.capturePhoto(to: folder + "/flash.png", flash: true)
        func brightness(_ path: String) throws -> Double {
            let image = try decodeImage(path)
            let rows = image.height / 4..<image.height * 3 / 4
            let slice = image.rgb[(rows.lowerBound * image.width * 3)..<(rows.upperBound * image.width * 3)]
            return Double(slice.reduce(0) { $0 + Int($1) }) / Double(slice.count)
        }
        #expect(try brightness(flash.path) > brightness(plain.path) + 20)
        let uvc = try await start("uvc")
        defer { uvc.stop() }
        await #expect(throws: CameraError.flashUnavailable(device: uvc.configuration.device!)) {
            _ = try await uvc.capturePhoto(to: folder + "/never.jpg", flash: true)
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/never.jpg"))
    }

    @Test func controlsFromTheConfigurationAreSetAsTheSessionStarts() async throws {
        let session = try await start("uvc") { $0.controls = [ControlSetting(name: "brightness", value: "75%")] }
        defer { session.stop(); VirtualCameras.resetControls(session.configuration.device!) }
        let brightness = try session.controls().control(named: "brightness")
        let expected = brightness.minimum + Int64((Double(brightness.maximum - brightness.minimum) * 0.75).rounded())
        #expect(try readBack("brightness", on: session.configuration.device!) == "\(expected)")
        // A misspelt control fails the start with what was misspelt, on which camera, and the right name.
        let device = "/dev/video4"
        let bad = try CameraSession(configuration: CameraConfiguration(device: device, width: 640, height: 480,
                                                                         controls: [ControlSetting(name: "brightnes", value: "1")]))
        do {
            try await bad.start()
            Issue.record("a session with an unknown control started")
        } catch let error as CameraError {
            guard case let .controlUnknown(name, camera, suggestions) = error else {
                Issue.record("expected controlUnknown, got \(error)")
                return
            }
            #expect(name == "brightnes" && camera == device && suggestions.first == "brightness", "\(error)")
            #expect(bad.state == .failed(error))
        }
    }

    @Test func theTestPatternHasNoCameraControls() async throws {
        let session = try await startTestPattern()
        defer { session.stop() }
        #expect(throws: CameraError.noDeviceControls(pipeline: session.pipelinePath)) { try session.controls() }
    }
}
