import Foundation
import Testing
@testable import CameraErrors
@testable import Cameras
@testable import Session
@testable import V4L2

/// Mode choice end to end on virtual cameras with real drivers' mode tables (scripts/test): /dev/video16 is a
/// USB webcam (YUYV 640x480@30, 1280x720@10, 1920x1080@5; MJPG 30 fps up to 1920x1080), /dev/video18 is
/// vivid's webcam input (25 fps at 640x480, 12.5 at 1280x720, 5 at 1080p, 2 at 3840x2160).
@Suite(.serialized) struct ModeCLITests {
    static let webcam = "/dev/video16"
    static let vivid = "/dev/video18"

    /// gstcam with a private runtime folder: no camera screen of another test run can answer for these cameras.
    func run(_ arguments: [String]) throws -> ProcessResult {
        let runtime = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        return try gstcam(arguments, environment: environment)
    }

    func json(_ line: Substring) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func aPhotoIsTheLargestSizeTheWebcamOffersThroughMotionJPEG() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try run(["capture", "--camera", Self.webcam, "--warmup", "2", "-o", folder + "/full.jpg"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "Saved \(folder)/full.jpg (1920x1080)\n")
        #expect(result.error == "Mode: 1920x1080 at 30 fps, Motion-JPEG, decoded (MJPG): the largest size \(Self.webcam) offers, for a photo\n")
        let image = try decodeImage(folder + "/full.jpg")
        #expect(image.width == 1920 && image.height == 1080)
    }

    @Test func aPhotoOnVividIsItsLargestSizeAtTwoFramesASecond() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try run(["capture", "--camera", Self.vivid, "--immediate", "--json", "-o", folder + "/4k.jpg"])
        #expect(result.status == 0, "\(result.error)")
        let object = try json(result.output.split(separator: "\n").first ?? "")
        let mode = try #require(object["mode"] as? [String: Any])
        #expect(mode["width"] as? Int == 3840 && mode["height"] as? Int == 2160)
        #expect(mode["framerate"] as? String == "2/1" && mode["pipeline"] as? String == "default")
        #expect(mode["nearest"] as? Bool == false && mode["asked"] is NSNull)
        let image = try decodeImage(folder + "/4k.jpg")
        #expect(image.width == 3840 && image.height == 2160)
    }

    @Test func thePreviewTakesFullHDAtThirtyThroughMotionJPEGOnTheWebcamAndSmoothRawOnVivid() throws {
        let webcam = try run(["preview", "--camera", Self.webcam, "--sink", "none", "--duration", "1.5", "--json"])
        #expect(webcam.status == 0, "\(webcam.error)")
        let lines = webcam.output.split(separator: "\n")
        let event = try json(lines.first ?? "")
        #expect(event["event"] as? String == "mode")
        let mode = try #require(event["mode"] as? [String: Any])
        #expect(mode["width"] as? Int == 1920 && mode["fps"] as? String == "30" && mode["format"] as? String == "MJPG")
        #expect(mode["pipeline"] as? String == "mjpeg")
        #expect((try json(lines.last ?? "")["frames"] as? Int ?? 0) > 0)

        let vivid = try run(["preview", "--camera", Self.vivid, "--sink", "none", "--duration", "1.5"])
        #expect(vivid.status == 0, "\(vivid.error)")
        #expect(vivid.error.hasPrefix("Mode: 640x480 at 25 fps, raw (YUYV): \(Self.vivid)'s best for a preview"))
    }

    @Test(arguments: [
        (["--fps", "12.5", "--width", "1280", "--height", "720"], "Mode: 1280x720 at 12.5 fps, raw (YUYV), as asked", "25/2"),
        (["--fps", "30000/1001"], "Mode: 640x480 at 25 fps, raw (YUYV): \(vivid) has no 29.97 fps, this is the nearest it has", "25/1"),
        (["--fps", "15/2", "--width", "640", "--height", "480"], "Mode: 640x480 at 5 fps, raw (YUYV): \(vivid) has no 640x480 at 7.5 fps, this is the nearest it has", "5/1"),
        (["--width", "1000", "--height", "562"], "Mode: 1280x720 at 12.5 fps, raw (YUYV): \(vivid) has no 1000x562, this is the nearest it has", "25/2"),
    ])
    func fractionalRatesAndSizesGetTheNearestModeWithALineSayingSo(_ options: [String], _ line: String, _ fraction: String) throws {
        let result = try run(["preview", "--camera", Self.vivid, "--sink", "none", "--duration", "1", "--json"] + options)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error == line + "\n")
        let mode = try #require(try json(result.output.split(separator: "\n").first ?? "")["mode"] as? [String: Any])
        #expect(mode["framerate"] as? String == fraction)
        #expect(!result.error.contains("not-negotiated"))
    }

    @Test func aNamedPipelineLimitsTheModesToItsKind() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try run(["capture", "--camera", Self.webcam, "--pipeline", "default", "--width", "1280", "--height", "720",
                              "--fps", "30", "--immediate", "-o", folder + "/raw.jpg"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error == "Mode: 1280x720 at 10 fps, raw (YUYV): \(Self.webcam) has no 1280x720 at 30 fps, this is the nearest it has\n")
        #expect(result.output == "Saved \(folder)/raw.jpg (1280x720)\n")
        let mjpegOnly = try run(["capture", "--camera", "/dev/video10", "--pipeline", "default", "-o", folder + "/never.jpg"])
        #expect(mjpegOnly.status == 1)
        #expect(mjpegOnly.error.contains("it offers no raw format for"), "\(mjpegOnly.error)")
    }

    /// vivid's 8-bit Bayer format goes through bayer2rgb with its colours right: a red identity band stays red.
    @Test func aBayerModeIsMadeColourByBayer2rgb() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["VCAM_DEVICES"] = "/dev/video18=vivid,color=e61e1e"
        environment["VCAM_STATE_DIR"] = folder + "/state"
        environment["XDG_RUNTIME_DIR"] = folder
        let path = folder + "/bayer.jpg"
        let result = try gstcam(["capture", "--camera", Self.vivid, "--pipeline", "bayer", "--width", "640", "--height", "480",
                                 "--warmup", "2", "-o", path], environment: environment)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error == "Mode: 640x480 at 25 fps, Bayer, through bayer2rgb (BA81), as asked\n")
        let image = try decodeImage(path)
        #expect(image.width == 640 && image.height == 480)
        let offset = (40 * 640 + 320) * 3
        let (r, g, b) = (Int(image.rgb[offset]), Int(image.rgb[offset + 1]), Int(image.rgb[offset + 2]))
        #expect(abs(r - 0xe6) < 30 && abs(g - 0x1e) < 30 && abs(b - 0x1e) < 30, "band (\(r), \(g), \(b))")
    }

    @Test(arguments: ["abc", "0", "30/0", "-1"])
    func aRateThatIsNotOneIsAUsageError(_ text: String) throws {
        let result = try run(["preview", "--camera", Self.vivid, "--fps", text])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("gstcam: --fps: \"\(text)\" is not a frame rate such as 30, 12.5 or 30000/1001"), "\(result.error)")
    }

    /// A configuration built by hand for a mode the camera lacks fails before GStreamer is asked, naming the
    /// nearest mode, instead of "not-negotiated".
    @Test func aHandMadeModeTheCameraLacksIsRefusedWithTheNearestOne() async throws {
        let session = try CameraSession(configuration: CameraConfiguration(device: Self.vivid, width: 640, height: 480, framerate: 30))
        defer { session.stop() }
        await #expect(throws: CameraError.negotiationFailed(device: Self.vivid,
            detail: "it has no raw mode 640x480 at 30 fps; the nearest it has is 640x480 at 25 fps, raw (YUYV)")) {
            try await session.start()
        }
        let mjpeg = try CameraSession(configuration: CameraConfiguration(pipeline: "mjpeg", device: Self.vivid))
        defer { mjpeg.stop() }
        await #expect(throws: CameraError.self) { try await mjpeg.start() }
        #expect("\(mjpeg.state)".contains("it offers no Motion-JPEG format for"), "\(mjpeg.state)")
    }

    /// A session at vivid's 12.5 fps switches to the webcam, which has no 12.5 at 1280x720: its nearest raw mode
    /// there is asked for (10 fps), frames keep their size, and switching back asks for 25/2 again.
    @Test func switchingFromAFractionalRateTakesTheNewCamerasNearestMode() async throws {
        let session = try await startCamera(Self.vivid, choosing: ModeRequest(width: 1280, height: 720, frameRate: FrameRate("12.5"),
                                                                              purpose: .preview))
        defer { session.stop() }
        #expect(session.configuration.framerate == FrameRate(numerator: 25, denominator: 2))
        func sourceCaps() -> String? { capsfilterCaps("source-caps", of: session) }
        #expect(sourceCaps()?.contains("framerate=(fraction)25/2") == true, "\(sourceCaps() ?? "no caps")")
        try await session.switchCamera(to: Self.webcam)
        #expect(session.device == Self.webcam)
        #expect(sourceCaps()?.contains("width=(int)1280, height=(int)720, framerate=(fraction)10/1") == true, "\(sourceCaps() ?? "no caps")")
        for await frame in session.frames() {
            #expect(frame.width == 1280 && frame.height == 720)
            break
        }
        try await session.switchCamera(to: Self.vivid)
        #expect(sourceCaps()?.contains("framerate=(fraction)25/2") == true, "\(sourceCaps() ?? "no caps")")
    }

    /// Every mode the two cameras list starts streaming in the pipeline chosen for it: no negotiation error.
    @Test(arguments: [webcam, vivid])
    func everyListedModeStreams(_ device: String) async throws {
        let camera = try CameraDiscovery.camera(matching: device)
        var seen = Set<String>()
        for mode in camera.modes where seen.insert("\(mode.kind) \(mode.width)x\(mode.height)@\(mode.frameRate.fraction)").inserted {
            let configuration = CameraConfiguration(pipeline: mode.kind.pipelineName, device: device, width: mode.width,
                                                    height: mode.height, framerate: mode.frameRate, startTimeout: .seconds(5))
            let session = try CameraSession(configuration: configuration)
            do {
                try await session.start()
            } catch {
                Issue.record("\(device) \(mode): \(error)")
            }
            session.stop()
        }
        // webcam: YUYV 5 + MJPG 6; vivid: 42 size-rate pairs, raw (YUYV, UYVY, NV12, GREY, RGB3, BGR3) and Bayer (BA81).
        #expect(seen.count == (device == Self.webcam ? 11 : 84))
        if device == Self.vivid { #expect(Set(camera.modes.map(\.kind)) == [.raw, .bayer]) }
    }
}
