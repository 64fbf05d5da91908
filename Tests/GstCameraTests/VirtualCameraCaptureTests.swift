import Foundation
import Testing
import GstCamera

/// `gstcam capture` as a subprocess against the virtual cameras: the photo shows the chosen device, at the
/// largest size it offers (docs/modes.md).
@Suite(.serialized) struct VirtualCameraCaptureTests {
    @Test(arguments: [("/dev/video0", (0xe6, 0x1e, 0x1e), 1920, 1080), ("/dev/video2", (0x1e, 0xc8, 0x1e), 1920, 1080),
                      ("/dev/video4", (0x1e, 0x3c, 0xe6), 640, 480)])
    func aPhotoShowsTheChosenCamerasIdentity(_ device: String, _ colour: (Int, Int, Int), _ width: Int, _ height: Int) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/identity.jpg"
        let result = try gstcam(["capture", "--camera", device, "--warmup", "3", "-o", path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "Saved \(path) (\(width)x\(height))\n")
        let image = try decodeImage(path)
        #expect(image.width == width && image.height == height)
        // The identity band is the top sixth (80 rows at 480); sample its middle.
        let offset = ((height / 12) * width + width / 2) * 3
        let (r, g, b) = (Int(image.rgb[offset]), Int(image.rgb[offset + 1]), Int(image.rgb[offset + 2]))
        #expect(abs(r - colour.0) < 24 && abs(g - colour.1) < 24 && abs(b - colour.2) < 24, "band (\(r), \(g), \(b))")
        // EXIF names the camera by its card; a camera that does not say who made it (no USB descriptor: the
        // virtual camera has no sysfs node) gets no Make, not the card name's first word.
        let tags = try runProcess("/usr/bin/exiftool", ["-s", "-s", "-Make", "-Model", path]).output
        #expect(tags.hasPrefix("Model: Virtual "), "\(tags)")
        #expect(!tags.contains("Make:"), "\(tags)")
    }
}
