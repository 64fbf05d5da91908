import Foundation
import Testing
@testable import Session

/// `--stamp` / `CameraConfiguration.photoStamp`: the date and time drawn in a photo's bottom right corner. The
/// virtual camera's scene is a still checkerboard there (its moving square is higher up), so two photos differ
/// only where something was drawn.
@Suite(.serialized) struct PhotoStampTests {

    private func photo(_ device: String, pipeline: String = "default", stamp: String?, to path: String) async throws -> DecodedImage {
        var configuration = CameraConfiguration(pipeline: pipeline, device: device, width: 640, height: 480)
        configuration.photoStamp = stamp
        return try await decodedPhoto(configuration, to: path)
    }

    /// The columns (in `rows`) where the two images differ by more than `tolerance` in any channel.
    private func differingColumns(_ a: DecodedImage, _ b: DecodedImage, rows: Range<Int>, tolerance: Int) -> [Int] {
        (0..<a.width).filter { x in
            rows.contains { y in
                let offset = (y * a.width + x) * 3
                return (0..<3).contains { abs(Int(a.rgb[offset + $0]) - Int(b.rgb[offset + $0])) > tolerance }
            }
        }
    }

    @Test func theTimeIsDrawnBottomRightInTheFormatAsked() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = try await photo("/dev/video0", stamp: nil, to: folder + "/plain.png")
        let again = try await photo("/dev/video0", stamp: nil, to: folder + "/again.png")
        let full = try await photo("/dev/video0", stamp: "%Y-%m-%d %H:%M:%S", to: folder + "/full.png")
        let year = try await photo("/dev/video0", stamp: "%Y", to: folder + "/year.png")
        let bottom = 400..<460
        #expect(differingColumns(plain, again, rows: bottom, tolerance: 0).isEmpty, "the scene is not still there")
        let fullColumns = differingColumns(plain, full, rows: bottom, tolerance: 0)
        let yearColumns = differingColumns(plain, year, rows: bottom, tolerance: 0)
        // Right-aligned: both end near the right edge; "2026" is far narrower than "2026-12-06 18:35:48".
        #expect(fullColumns.count > 150 && (fullColumns.last ?? 0) > 560, "\(fullColumns.first ?? -1)…\(fullColumns.last ?? -1)")
        #expect(yearColumns.count > 30 && yearColumns.count < fullColumns.count / 2 && (yearColumns.last ?? 0) > 560,
                "\(yearColumns.count) columns for %Y, \(fullColumns.count) for the whole date")
        // Nothing drawn above the stamp (the identity band and the checkerboard's upper rows).
        #expect(differingColumns(plain, full, rows: 0..<160, tolerance: 0).isEmpty)
    }

    /// A Motion-JPEG camera's photo is its own JPEG (no decode, no re-encode) unless something changes the
    /// pixels: a stamp must make the session encode from decoded frames, or the stamp would be lost.
    @Test func aMotionJPEGCamerasPhotoIsEncodedWhenStamped() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = try await photo("/dev/video10", pipeline: "mjpeg", stamp: nil, to: folder + "/plain.jpg")
        let stamped = try await photo("/dev/video10", pipeline: "mjpeg", stamp: "%Y-%m-%d %H:%M:%S", to: folder + "/stamped.jpg")
        let columns = differingColumns(plain, stamped, rows: 400..<460, tolerance: 40)
        #expect(columns.count > 150, "\(columns.count) columns differ")
        let software = try runProcess("/usr/bin/exiftool", ["-s", "-s", "-s", "-Software", folder + "/stamped.jpg"]).output
        #expect(software == "gstcam\n")
    }

    @Test func gstcamCaptureTakesAFormatOrNone() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (arguments, name) in [(["--stamp", "%H:%M"], "spaced.png"), (["--stamp=%Y"], "joined.png"), (["--stamp"], "bare.png")] {
            let result = try gstcam(["capture", "--device", "/dev/video0", "--width", "640", "--height", "480", "--immediate"]
                                    + arguments + ["-o", folder + "/" + name])
            #expect(result.status == 0, "\(arguments): \(result.error)")
        }
        let empty = try gstcam(["capture", "--device", "/dev/video0", "--stamp=", "-o", folder + "/empty.png"])
        #expect(empty.status == 64 && empty.error.contains("--stamp: give a strftime format"), "\(empty.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["bare.png", "joined.png", "spaced.png"])
    }
}
