import Foundation
import Testing
@testable import CameraErrors
@testable import MediaFiles
@testable import Screen
@testable import Session

/// Issue 15's list of faults a new user met, each as the user meets it: exit statuses, messages, files, and the
/// pictures photos show (flash). Cameras: /dev/video0 uvc (no flash, optical zoom 1…5×), /dev/video2 sensor (flash,
/// led_mode + strobe: the 2 frames after a strobe are +90 luma), /dev/video4 basic (no focus, no ROI).
@Suite(.serialized) struct CameraAppFixTests {
    static let devices = "/dev/video0=uvc;/dev/video2=sensor;/dev/video4=basic"

    /// A private camera state, runtime folder and gallery.
    static func environment(_ folder: String) throws -> [String: String] {
        for sub in ["vcam", "run", "photos"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        var environment = ProcessInfo.processInfo.environment
        environment["VCAM_DEVICES"] = devices
        environment["VCAM_STATE_DIR"] = folder + "/vcam"
        environment["XDG_RUNTIME_DIR"] = folder + "/run"
        environment["GSTCAM_PHOTO_DIR"] = folder + "/photos"
        return environment
    }

    /// Mean luma (0…255) of a photo, as a viewer decodes it.
    static func meanLuma(_ path: String) throws -> Double {
        let image = try decodeImage(path)
        var sum = 0.0
        for index in stride(from: 0, to: image.rgb.count - 2, by: 3 * 7) {
            sum += 0.299 * Double(image.rgb[index]) + 0.587 * Double(image.rgb[index + 1]) + 0.114 * Double(image.rgb[index + 2])
        }
        return sum / Double((image.rgb.count + 3 * 7 - 1) / (3 * 7))
    }

    @Test func setChecksEveryValueBeforeSettingAny() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = try Self.environment(folder)
        let refused = try gstcam(["set", "--device", "/dev/video0", "brightness=60%", "zoom_absolute=3"], environment: environment)
        #expect(refused.status == 1)
        #expect(refused.error.contains("3 is out of range for zoom_absolute: use 100…500"), "\(refused.error)")
        #expect(refused.output.isEmpty, "nothing is printed as set: \(refused.output)")
        #expect(try gstcam(["get", "--device", "/dev/video0", "brightness"], environment: environment).output == "brightness=0\n")
        // The README's example.
        let example = try gstcam(["set", "--device", "/dev/video0", "brightness=60%", "zoom_absolute=50%"], environment: environment)
        #expect(example.status == 0, "\(example.error)")
        #expect(example.output == "brightness=13  (asked 60%)\nzoom_absolute=300  (asked 50%)\n")
    }

    @Test func aPhotoNameMustSayItsFormat() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = try Self.environment(folder)
        let webp = try gstcam(["capture", "--pipeline", "test-pattern", "-o", folder + "/x.webp"], environment: environment)
        #expect(webp.status == 64)
        #expect(webp.error.contains(".webp is not a photo format gstcam writes; name it x.jpg"), "\(webp.error)")
        let mismatch = try gstcam(["capture", "--pipeline", "test-pattern", "--format", "png", "-o", folder + "/x.jpg"], environment: environment)
        #expect(mismatch.status == 64)
        #expect(mismatch.error.contains("is named .jpg, which is JPEG, but the photo is to be PNG: name it x.png"), "\(mismatch.error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.webp") && !FileManager.default.fileExists(atPath: folder + "/x.jpg"))
        #expect(PhotoFormat.problem(writing: .png, to: "/tmp/shot.PNG") == nil)
        #expect(PhotoFormat.problem(writing: .jpeg, to: "/tmp/shot") == nil)
        #expect(PhotoFormat.problem(writing: .png, to: "/dev/null") == nil)
        // The screen's socket refuses the same names.
        guard case .failure = RemoteRequest.parse(#"{"command":"capture","path":"/tmp/a.webp"}"#) else {
            Issue.record("the socket took a .webp name")
            return
        }
    }

    @Test func focusAtAPointOnACameraThatCannotFocusFails() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try gstcam(["capture", "--device", "/dev/video4", "--focus", "point:0.5,0.5", "-o", folder + "/a.jpg"],
                                environment: try Self.environment(folder))
        #expect(result.status == 1)
        #expect(result.error.hasSuffix("gstcam: Focus control not available on this camera (/dev/video4).\n"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.jpg"))
    }

    /// Auto flash decides from the scene: the default scene (mean luma ~126) takes no flash; brightness −64 and a
    /// 0.3 ms exposure (~27) fire it, and that photo is brighter than the same dark scene without flash.
    @Test func autoFlashFiresOnADarkSceneOnly() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = try Self.environment(folder)
        let small = ["--device", "/dev/video2", "--width", "640", "--height", "480"]
        let dark = ["--set", "brightness=-64", "--exposure", "manual:0.0003"]
        let bright = try gstcam(["capture", "--flash", "auto", "-o", folder + "/bright.jpg"] + small, environment: environment)
        #expect(bright.status == 0, "\(bright.error)")
        #expect(bright.error.contains("(dark below 60): does not fire"), "\(bright.error)")
        let flashed = try gstcam(["capture", "--flash", "auto", "-o", folder + "/flash.jpg"] + small + dark, environment: environment)
        #expect(flashed.status == 0, "\(flashed.error)")
        #expect(flashed.error.contains("(dark below 60): fires"), "\(flashed.error)")
        let unflashed = try gstcam(["capture", "--flash", "off", "-o", folder + "/dark.jpg"] + small + dark, environment: environment)
        #expect(unflashed.status == 0, "\(unflashed.error)")
        let (brightLuma, flashLuma, darkLuma) = (try Self.meanLuma(folder + "/bright.jpg"), try Self.meanLuma(folder + "/flash.jpg"),
                                                 try Self.meanLuma(folder + "/dark.jpg"))
        #expect(brightLuma > 100 && darkLuma < 60, "\(brightLuma) \(darkLuma)")
        #expect(flashLuma > darkLuma + 50, "the flash lit the photo: \(flashLuma) against \(darkLuma)")
    }

    /// While a screen runs on the camera, `capture` with --format png, -o - and --flash is served through it; a
    /// burst is refused naming our own screen.
    @Test func theScreenServesPNGStandardOutputAndFlash() throws {
        let preview = try ScreenProcess(["preview", "--sink", "none", "--duration", "25", "--device", "/dev/video2",
                                         "--width", "640", "--height", "480"], devices: Self.devices)
        defer { preview.remove() }
        #expect(preview.wait { FileManager.default.fileExists(atPath: preview.runtime + "/gstcam-video2.sock") }, "no socket: \(preview.errors)")
        let environment = preview.environment(devices: Self.devices)
        let png = try gstcam(["capture", "--device", "/dev/video2", "--format", "png", "-o", preview.folder + "/a.png"], environment: environment)
        #expect(png.status == 0 && png.output.hasSuffix("through the running preview\n"), "\(png.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: preview.folder + "/a.png")).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        let standardOutput = try runProcess("/bin/sh", ["-c", "\(gstcamBinary) capture --device /dev/video2 -o - > \(preview.folder)/out.jpg"],
                                            environment: environment)
        #expect(standardOutput.status == 0, "\(standardOutput.error)")
        #expect(try decodeImage(preview.folder + "/out.jpg").width == 640)
        let flash = try gstcam(["capture", "--device", "/dev/video2", "--flash", "-o", preview.folder + "/flash.jpg"], environment: environment)
        #expect(flash.status == 0, "\(flash.error)")
        #expect(try Self.meanLuma(preview.folder + "/flash.jpg") > Self.meanLuma(preview.folder + "/out.jpg") + 40)
        let burst = try gstcam(["capture", "--device", "/dev/video2", "--count", "2", "--dir", preview.folder], environment: environment)
        #expect(burst.status == 1)
        #expect(burst.error.contains("our own camera screen (gstcam preview, PID \(preview.process.processIdentifier)) holds /dev/video2"), "\(burst.error)")
        // The socket's flash mode and the status reply.
        let send = { (request: String) in try gstcam(["preview", "--device", "/dev/video2", "--send", request], environment: environment) }
        #expect(try send(#"{"command":"flash","mode":"auto"}"#).output == #"{"message":"Flash: Auto","ok":true}"# + "\n")
        #expect(try send(#"{"command":"status"}"#).output.contains(#""flash":"auto""#))
        #expect(try send(#"{"command":"flash"}"#).output == #"{"message":"Flash: Off","ok":true}"# + "\n")
        #expect(try send(#"{"command":"flash","mode":"sometimes"}"#).status == 1)
        // Zoom past the largest is clamped to it (5× optical × 8× digital), as the wheel is.
        #expect(try send(#"{"command":"zoom","factor":1000}"#).output.contains(#""message":"Zoom 40×""#))
        #expect(try send(#"{"command":"status"}"#).output.contains(#""zoom":40"#))
    }

    /// The words for `c` with nowhere to go (the window says it in ScreenRecoveryTests).
    @Test func noOtherCameraIsSaidInWords() {
        let error = CameraError.noOtherCamera(device: "/dev/video0", unusable: ["/dev/video2 Foo: permission denied"])
        #expect(error.description == "No other camera to switch to: /dev/video0 is the only camera that can be used; "
            + "the others cannot be used:\n  /dev/video2 Foo: permission denied")
        #expect(CameraOperator.brief(error) == "No other camera to switch to: /dev/video0 is the only one that can be used")
    }
}
