import Foundation
import Testing
@testable import Cameras
@testable import Session
@testable import MediaFiles

/// What a photo's EXIF says about the camera: who made it (only where the camera says) and how much of the zoom
/// was digital.
@Suite struct PhotoMetadataTests {
    /// A sysfs tree as the kernel lays one out for a UVC camera: the node's `device` links to the USB interface,
    /// whose parent, the USB device, has the descriptor's strings.
    @Test func theMakerIsTheUSBDevicesManufacturerString() throws {
        let sysfs = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: sysfs) }
        let usbDevice = sysfs + "/devices/pci0000:00/usb1/1-1"
        try FileManager.default.createDirectory(atPath: usbDevice + "/1-1:1.0", withIntermediateDirectories: true)
        try "Logitech\n".write(toFile: usbDevice + "/manufacturer", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: sysfs + "/class/video4linux/video2", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sysfs + "/class/video4linux/video2/device",
                                                   withDestinationPath: usbDevice + "/1-1:1.0")
        #expect(CameraManufacturer.of(device: "/dev/video2", sysfs: sysfs) == "Logitech")
        // A platform camera (no USB device above it) or an unknown node has no maker.
        #expect(CameraManufacturer.of(device: "/dev/video0", sysfs: sysfs) == nil)
    }

    /// The sensor profile has a 5× optical zoom (zoom_absolute 100…500): at 10× the lens does 5× and cropping
    /// 2×, and the EXIF DigitalZoomRatio is the 2 that cropping did.
    @Test func digitalZoomRatioIsTheDigitalPartOnly() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try CameraSession(configuration: CameraConfiguration(device: "/dev/video2", width: 640, height: 480))
        try await session.start()
        defer { session.stop() }
        let zoom = try session.setZoom(Zoom(factor: 10))
        #expect(zoom.opticalFactor == 5 && zoom.digitalFactor == 2, "\(zoom)")
        let photo = try await session.capturePhoto(to: folder + "/zoomed.jpg")
        let ratio = try runProcess("/usr/bin/exiftool", ["-s", "-s", "-s", "-DigitalZoomRatio", photo.path]).output
        #expect(ratio == "2\n", "DigitalZoomRatio \(ratio)")
    }

    /// pngenc writes no metadata: a PNG gets the JPEG's EXIF block as an eXIf chunk, which exiftool reads (and
    /// warns about nothing: every chunk's CRC holds), ImageMagick still decodes, and the gallery reads back.
    @Test func aPNGCarriesTheSameEXIFInAnEXIfChunk() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try CameraSession(configuration: CameraConfiguration(device: "/dev/video2", width: 640, height: 480))
        try await session.start()
        defer { session.stop() }
        try session.setZoom(Zoom(factor: 10))
        let photo = try await session.capturePhoto(to: folder + "/zoomed.png")
        let read = try runProcess("/usr/bin/exiftool", ["-s", "-s", "-s", "-Model", "-Software", "-DateTimeOriginal",
                                                         "-DigitalZoomRatio", "-ImageSize", "-Warning", photo.path])
        let lines = read.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(read.output)")
        let model = try #require(lines.first)
        #expect(model.hasPrefix("Virtual") && model.contains("video2"), "\(model)")
        #expect(Array(lines.dropFirst().prefix(1)) == ["gstcam"])
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        let taken = try #require(lines.count > 2 ? formatter.date(from: lines[2]) : nil)
        #expect(abs(taken.timeIntervalSinceNow) < 60)
        #expect(Array(lines.suffix(2)) == ["2", "640x480"], "\(read.output)")
        #expect(try decodeImage(photo.path).width == 640)
        let listed = try #require(GalleryPhoto(path: photo.path))
        #expect(listed.camera == model && listed.dateSource == .exif, "\(listed)")
    }
}
