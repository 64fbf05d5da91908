import Foundation
import Testing
@testable import CameraErrors
@testable import Cameras
@testable import Controls
@testable import LinuxSystem
@testable import MediaFiles
@testable import Session

/// Switching between virtual cameras (scripts/test configures them): /dev/video0 is red (uvc), /dev/video4
/// blue (basic), /dev/video8 green without 640x480, /dev/video10 Motion-JPEG only, /dev/video2 green (sensor, NV12
/// first). The identity band is the top sixth of each frame.
@Suite(.serialized) struct CameraSwitchingTests {
    static let red = "/dev/video0"
    static let blue = "/dev/video4"
    /// Offers 320x240 and 1280x720 only.
    static let green = "/dev/video8"
    static let motionJPEGOnly = "/dev/video10"
    /// Green too, and its modes are NV12 first (the sensor profile).
    static let sensor = "/dev/video2"

    enum Identity: Equatable { case red, blue, green, other }

    static func identity(of frame: Frame) -> Identity {
        let (r, g, b) = frame.rgb(x: frame.width / 2, y: frame.height / 24)
        if r > 180 && g < 80 && b < 80 { return .red }
        if b > 180 && r < 80 && g < 80 { return .blue }
        if g > 180 && r < 80 && b < 80 { return .green }
        return .other
    }

    /// After a refused switch: still running on `device`, frames flowing and showing its identity.
    private func expectStillStreaming(_ session: CameraSession, _ device: String, _ identity: Identity) async throws {
        #expect(session.state == .running)
        #expect(session.device == device)
        let before = session.frameCount
        try await Task.sleep(for: .milliseconds(300))
        #expect(session.frameCount > before + 5, "the preview keeps running on the previous camera")
        for await frame in session.frames() {
            #expect(Self.identity(of: frame) == identity)
            break
        }
    }

    /// Five frames of a green camera at the session's 640x480, then a switch back to the red camera (which has
    /// 640x480: it is asked for that again) and its frames.
    private func expectGreenFramesThenBackToRed(_ session: CameraSession) async throws {
        var seen = 0
        for await frame in session.frames() {
            #expect(frame.width == 640 && frame.height == 480)
            #expect(Self.identity(of: frame) == .green)
            seen += 1
            if seen == 5 { break }
        }
        try await session.switchCamera(to: Self.red)
        for await frame in session.frames() {
            #expect(Self.identity(of: frame) == .red && frame.width == 640)
            break
        }
    }

    private func startOn(_ device: String) async throws -> CameraSession {
        try await startCamera(device)
    }

    @Test func framesComeFromTheNewCameraAfterASwitchWithoutAGap() async throws {
        let session = try await startOn(Self.red)
        defer { session.stop() }
        let recorder = Task {
            var seen: [(Identity, Duration)] = []
            let clock = ContinuousClock()
            let start = clock.now
            for await frame in session.frames() {
                seen.append((Self.identity(of: frame), clock.now - start))
                if seen.count >= 40 && seen.last?.0 == .blue { break }
            }
            return seen
        }
        try await Task.sleep(for: .milliseconds(400))
        let result = try await session.switchCamera(to: Self.blue)
        #expect(result.from == Self.red && result.to == Self.blue)
        #expect(result.duration < .seconds(2))
        #expect(session.device == Self.blue)
        try await Task.sleep(for: .milliseconds(500))
        session.stop()
        let seen = await recorder.value
        let identities = seen.map(\.0)
        let firstBlue = try #require(identities.firstIndex(of: .blue))
        #expect(identities[..<firstBlue].allSatisfy { $0 == .red }, "\(identities)")
        #expect(identities[firstBlue...].allSatisfy { $0 == .blue }, "\(identities)")
        // No gap longer than a few frame intervals around the switch.
        let gaps = zip(seen, seen.dropFirst()).map { $1.1 - $0.1 }
        #expect(gaps.max()! < .milliseconds(400), "longest gap \(gaps.max()!)")
    }

    @Test func aCameraWithoutTheSessionSizeIsScaledToIt() async throws {
        let session = try await startOn(Self.red)
        defer { session.stop() }
        try await session.switchCamera(to: Self.green)
        try await expectGreenFramesThenBackToRed(session)
    }

    /// The sensor camera lists NV12 first, so its nearest mode is NV12 where the uvc one streamed YUYV: the stage
    /// after the zoom (`zoom-caps`, which names the format) must follow, or the new camera never negotiates.
    @Test func aCameraWhoseModeIsInAnotherRawFormatStreamsInIt() async throws {
        // A chosen mode, as the CLI's sessions have: the pipeline then names its format (YUYV), not every raw one.
        let session = try await startCamera(Self.red, choosing: ModeRequest(width: 640, height: 480, frameRate: nil, purpose: .preview))
        defer { session.stop() }
        func zoomCaps() -> String? { capsfilterCaps("zoom-caps", of: session) }
        #expect(zoomCaps()?.contains("format=(string)YUY2") == true, "\(zoomCaps() ?? "no caps")")
        try await session.switchCamera(to: Self.sensor)
        #expect(zoomCaps()?.contains("format=(string)NV12") == true, "\(zoomCaps() ?? "no caps")")
        try session.setZoom(Zoom(factor: 2))
        try await expectGreenFramesThenBackToRed(session)
    }

    @Test func aCameraWithNoUsableFormatIsRefusedAndThePreviousOneComesBack() async throws {
        // This camera offers Motion-JPEG only, which the raw default pipeline cannot take: the switch is refused
        // before the red camera is touched, and it keeps streaming.
        let session = try await startOn(Self.red)
        defer { session.stop() }
        do {
            try await session.switchCamera(to: Self.motionJPEGOnly)
            Issue.record("switched to a camera with no raw format")
        } catch let error as CameraError {
            guard case .negotiationFailed(let device, let detail) = error else { Issue.record("got \(error)"); return }
            #expect(device == Self.motionJPEGOnly)
            #expect(detail.hasPrefix("it offers no raw format, which this session's pipeline"), "\(detail)")
        }
        try await expectStillStreaming(session, Self.red, .red)
    }

    @Test func theTorchIsTurnedOffOnTheCameraBeingLeft() async throws {
        let sensor = try VirtualCameras.path(profile: "sensor")
        VirtualCameras.resetControls(sensor)
        defer { VirtualCameras.resetControls(sensor) }
        let session = try await startOn(sensor)
        defer { session.stop() }
        #expect(try session.controls().setTorch(on: true).isOn)
        try await session.switchCamera(to: Self.red)
        #expect(try CameraControls(devicePath: sensor).torchState().isOn == false)
        #expect(try VirtualCameras.v4l2ctl("-d", sensor, "-C", "led_mode").standardOutput == "led_mode: 0 (Off)\n")
    }

    @Test func switchingToAMissingCameraKeepsThePreviousOne() async throws {
        let session = try await startOn(Self.red)
        defer { session.stop() }
        await #expect(throws: CameraError.noSuchDevice(path: "/dev/video99", available: CameraDiscovery.cameras().map(\.summary))) {
            try await session.switchCamera(to: "/dev/video99")
        }
        try await expectStillStreaming(session, Self.red, .red)
    }

    @Test func switchingToAForbiddenCameraKeepsThePreviousOne() async throws {
        // The virtual camera's "deny" fault: open(2) of the blue camera fails with EACCES.
        let state = try #require(ProcessInfo.processInfo.environment["VCAM_STATE_DIR"]) + "/video4"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: state + "/deny", contents: Data())
        defer { try? FileManager.default.removeItem(atPath: state + "/deny") }
        let session = try await startOn(Self.red)
        defer { session.stop() }
        await #expect(throws: CameraError.permissionDenied(path: Self.blue)) {
            try await session.switchCamera(to: Self.blue)
        }
        try await expectStillStreaming(session, Self.red, .red)
    }

    @Test func switchingToABusyCameraKeepsThePreviousOne() async throws {
        // Another process streams the blue camera.
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        other.arguments = ["-q", "v4l2src", "device=\(Self.blue)", "!", "fakesink"]
        other.standardOutput = Pipe()
        other.standardError = Pipe()
        try other.run()
        defer { killAndWait(other) }
        try await Task.sleep(for: .milliseconds(800))
        let session = try await startOn(Self.red)
        defer { session.stop() }
        do {
            try await session.switchCamera(to: Self.blue)
            Issue.record("switching to a busy camera succeeded")
        } catch let error as CameraError {
            guard case .deviceBusy(let path, _) = error else { Issue.record("got \(error)"); return }
            #expect(path == Self.blue)
        }
        try await expectStillStreaming(session, Self.red, .red)
    }

    @Test func aPhotoTakenAroundASwitchIsComplete() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startOn(Self.red)
        defer { session.stop() }
        async let photo = session.capturePhoto(to: folder + "/during.jpg")
        async let change = session.switchCamera(to: Self.blue)
        let (taken, switched) = try await (photo, change)
        #expect(switched.to == Self.blue)
        let image = try decodeImage(taken.path)
        #expect(image.width == 640 && image.height == 480)
        try Self.expectPicturedCameraIsNamed(taken.path, image)
    }

    /// A photo asked for while a switch runs waits for it, and is then the new camera's: its picture (the identity
    /// band) and its EXIF Model both.
    @Test func aPhotoThatWaitedForASwitchIsTheNewCamerasInPictureAndName() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startOn(Self.red)
        defer { session.stop() }
        async let change = session.switchCamera(to: Self.blue)
        try await Task.sleep(for: .milliseconds(10))   // the switch has taken its turn (its first step)
        let taken = try await session.capturePhoto(to: folder + "/after.jpg")
        _ = try await change
        let image = try decodeImage(taken.path)
        #expect(Self.bandColour(image).2 > 150, "the photo is not the blue camera's: \(Self.bandColour(image))")
        try Self.expectPicturedCameraIsNamed(taken.path, image)
    }

    /// A burst and a switch take turns: the switch runs between two photos of the burst, and every photo is wholly
    /// one camera's — its picture (identity band) and its EXIF Model agree — the later ones the new camera's.
    @Test func aBurstGivesWayToASwitchBetweenPhotos() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startOn(Self.red)
        defer { session.stop() }
        let names = try #require(NumberedPhotoNames(pattern: folder + "/burst-%03d.jpg"))
        let change = Task {
            try await Task.sleep(for: .milliseconds(100))
            return try await session.switchCamera(to: Self.blue)
        }
        var paths: [String] = []
        for try await shot in session.photos(count: 10, to: names) { paths.append(shot.photo.path) }
        _ = try await change.value
        #expect(paths.count == 10)
        // One exiftool for all: "burst-001.jpg<TAB>Virtual UVC Camera (video0)" per line.
        let table = try runProcess("/usr/bin/exiftool", ["-T", "-FileName", "-Model"] + paths).output
        let models = Dictionary(uniqueKeysWithValues: table.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            return (fields[0], fields.count > 1 ? fields[1] : "")
        })
        var fromBlue = 0
        for path in paths {
            let pictured = Self.bandColour(try decodeImage(path))
            let camera = pictured.0 > pictured.2 ? "(video0)" : "(video4)"
            if camera == "(video4)" { fromBlue += 1 }
            let model = models[FilePath.lastComponent(of: path)] ?? "none"
            #expect(model.contains(camera), "\(path) pictures \(camera), its EXIF Model says \(model)")
        }
        #expect(fromBlue > 0 && fromBlue < paths.count, "the switch did not come between photos (\(fromBlue) of \(paths.count) blue)")
    }

    static func bandColour(_ image: (width: Int, height: Int, rgb: [UInt8])) -> (Int, Int, Int) {
        let offset = ((image.height / 12) * image.width + image.width / 2) * 3
        return (Int(image.rgb[offset]), Int(image.rgb[offset + 1]), Int(image.rgb[offset + 2]))
    }

    /// The EXIF Model names the camera whose identity colour the picture shows (red video0, blue video4).
    static func expectPicturedCameraIsNamed(_ path: String, _ image: (width: Int, height: Int, rgb: [UInt8])) throws {
        let model = try runProcess("/usr/bin/exiftool", ["-s", "-s", "-s", "-Model", path]).output
        let (red, _, blue) = bandColour(image)
        let pictured = red > blue ? "(video0)" : "(video4)"
        #expect(model.contains(pictured), "the picture is \(pictured)'s, the EXIF Model says \(model)")
    }

    @Test func aHundredSwitchesLeakNoDescriptorsAndKeepPlaying() async throws {
        let session = try await startOn(Self.red)
        defer { session.stop() }
        func openDescriptors() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count }
        try await session.switchCamera(to: Self.blue)
        try await session.switchCamera(to: Self.red)
        let descriptorsBefore = try openDescriptors()
        let memoryBefore = residentKilobytes()
        var durations: [Duration] = []
        for index in 0..<100 {
            durations.append(try await session.switchCamera(to: index % 2 == 0 ? Self.blue : Self.red).duration)
        }
        #expect(session.state == .running)
        #expect(session.device == Self.red)
        let descriptorsAfter = try openDescriptors()
        #expect(descriptorsAfter <= descriptorsBefore + 2, "open descriptors \(descriptorsBefore) → \(descriptorsAfter): \(describeDescriptors())")
        let growth = residentKilobytes() - memoryBefore
        #expect(growth < 20_000, "resident memory grew by \(growth) kB over 100 switches")
        print("memory over 100 switches: \(memoryBefore) kB → \(memoryBefore + growth) kB")
        let sorted = durations.sorted()
        print("switch time over 100 switches: median \(sorted[50]), p95 \(sorted[95])")
    }
}
