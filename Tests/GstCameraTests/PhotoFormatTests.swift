import Foundation
import Testing
@testable import Session

@Suite struct PhotoFormatTests {
    @Test func jpegCarriesEXIFThatExiftoolReads() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        try session.setZoom(Zoom(factor: 2))
        let photo = try await session.capturePhoto(to: folder + "/exif.jpg")
        let result = try runProcess("/usr/bin/exiftool", ["-s", "-s", "-s", "-Software", "-DateTimeOriginal",
                                                           "-DigitalZoomRatio", "-ImageSize", photo.path])
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(result.output)")
        #expect(lines.first == "gstcam")
        // DateTimeOriginal is local time, to the second: within a minute of now.
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        let taken = try #require(formatter.date(from: lines[1]))
        #expect(abs(taken.timeIntervalSinceNow) < 60)
        #expect(lines[2] == "2")
        #expect(lines[3] == "320x240")
    }

    @Test func pngIsChosenByExtensionAndIsLossless() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let photo = try await session.capturePhoto(to: folder + "/shot.png")
        let data = try #require(FileManager.default.contents(atPath: photo.path))
        #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let image = try decodeImage(photo.path)
        #expect(image.width == 320 && image.height == 240)
        // Lossless: the colour bars are exactly the pattern's values (a JPEG would be off by a few).
        let offset = (40 * 320 + 20) * 3
        #expect(Array(image.rgb[offset..<offset + 3]) == [255, 255, 255])
        let yellowOffset = (40 * 320 + 65) * 3
        #expect(Array(image.rgb[yellowOffset..<yellowOffset + 3]) == [255, 255, 0])
    }

    @Test func higherQualityMakesLargerFiles() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var sizes: [Int] = []
        for quality in [20, 50, 80, 98] {
            let session = try CameraSession(configuration: CameraConfiguration(pipeline: "test-pattern", width: 320, height: 240, jpegQuality: quality))
            try await session.start()
            let photo = try await session.capturePhoto(to: folder + "/q\(quality).jpg")
            session.stop()
            sizes.append(try FileManager.default.attributesOfItem(atPath: photo.path)[.size] as! Int)
        }
        #expect(sizes == sizes.sorted() && Set(sizes).count == sizes.count, "sizes by quality: \(sizes)")
    }
}
