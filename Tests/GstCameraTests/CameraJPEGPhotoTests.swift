import Foundation
import Testing
@testable import Cameras
@testable import Session

/// Photos from a Motion-JPEG camera (issue 13): while nothing changes the pixels, a JPEG photo is the camera's
/// own image with EXIF added — not decoded and re-encoded. /dev/video10 sends only Motion-JPEG.
@Suite(.serialized) struct CameraJPEGPhotoTests {
    static let device = "/dev/video10"

    /// The payloads of a JPEG's quantization table segments (DQT), in order: what an encoder's quality setting
    /// decides, so equal tables mean the same encoder made the image.
    static func quantizationTables(_ bytes: [UInt8]) -> [[UInt8]] {
        var tables: [[UInt8]] = []
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xDA { break }  // start of scan: no more tables
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if marker == 0xDB { tables.append(Array(bytes[(offset + 4)..<min(bytes.count, offset + 2 + length)])) }
            offset += 2 + length
        }
        return tables
    }

    static func read(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func anUnzoomedPhotoIsTheCamerasOwnJPEGWithEXIFAndAZoomedOneIsEncoded() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // One frame exactly as the camera sends it.
        let cameraFrame = folder + "/camera.jpg"
        let grab = try runProcess("/usr/bin/gst-launch-1.0", ["-q", "v4l2src", "device=\(Self.device)", "num-buffers=1", "!",
                                                              "image/jpeg,width=640,height=480", "!", "filesink", "location=\(cameraFrame)"])
        #expect(grab.status == 0, "\(grab.error)")
        let cameraTables = Self.quantizationTables(try Self.read(cameraFrame))
        #expect(!cameraTables.isEmpty)

        // Quality 20 would give very different tables from the camera's, had the photo been re-encoded.
        let session = try CameraSession(configuration: CameraConfiguration(
            pipeline: "mjpeg", device: Self.device, width: 640, height: 480, jpegQuality: 20))
        try await session.start()
        defer { session.stop() }
        let plain = try await session.capturePhoto(to: folder + "/plain.jpg")
        #expect(plain.width == 640 && plain.height == 480)
        let plainBytes = try Self.read(plain.path)
        #expect(Self.quantizationTables(plainBytes) == cameraTables)

        // A whole JPEG that decodes, with the session's EXIF tags.
        let decode = try runProcess("/usr/bin/gst-launch-1.0", ["-q", "filesrc", "location=\(plain.path)", "!", "jpegdec", "!",
                                                                "video/x-raw,width=640,height=480", "!", "fakesink"])
        #expect(decode.status == 0, "\(decode.error)")
        let exif = try runProcess("/usr/bin/exiftool", ["-s", "-s", "-s", "-Software", "-Model", "-ImageSize", plain.path])
        let cardName = try CameraDiscovery.camera(matching: Self.device).name
        #expect(exif.output.split(separator: "\n").map(String.init) == ["gstcam", cardName, "640x480"], "\(exif.output)")

        // Digital zoom changes the pixels: the photo is encoded from the zoomed frames, at the quality asked.
        _ = try session.setZoom(Zoom(factor: 2))
        let zoomed = try await session.capturePhoto(to: folder + "/zoomed.jpg")
        let zoomedTables = Self.quantizationTables(try Self.read(zoomed.path))
        #expect(!zoomedTables.isEmpty && zoomedTables != cameraTables)
        let zoomedExif = try runProcess("/usr/bin/exiftool", ["-s", "-s", "-s", "-Software", zoomed.path])
        #expect(zoomedExif.output == "gstcam\n")

        // Back to no zoom: the camera's image again.
        _ = try session.setZoom(Zoom.none)
        let again = try await session.capturePhoto(to: folder + "/again.jpg")
        #expect(Self.quantizationTables(try Self.read(again.path)) == cameraTables)
    }
}
