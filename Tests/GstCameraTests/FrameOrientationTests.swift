import Foundation
import Testing
@testable import CameraErrors
@testable import Controls
@testable import Session

/// `--rotate 180` and `--mirror` (`CameraConfiguration.orientation`): the picture turned in front of the tee, for
/// every branch; the camera's own JPEGs are not used as they are; a point on the turned picture is the camera's
/// own point where it shows.
@Suite(.serialized) struct FrameOrientationTests {

    private func photo(pipeline: String = "test-pattern", device: String? = nil, _ orientation: FrameOrientation,
                       to path: String) async throws -> DecodedImage {
        var configuration = CameraConfiguration(pipeline: pipeline, device: device, width: 320, height: 240)
        configuration.orientation = orientation
        return try await decodedPhoto(configuration, to: path)
    }

    private func pixel(_ image: DecodedImage, _ x: Int, _ y: Int) -> [Int] {
        let offset = (y * image.width + x) * 3
        return image.rgb[offset..<offset + 3].map(Int.init)
    }

    /// The share of the test pattern's still rows (its bars, not the moving snow at the bottom) where `turned`
    /// shows at `place(x, y)` what the plain picture shows at (x, y).
    private func agreement(_ plain: DecodedImage, _ turned: DecodedImage, _ place: (Int, Int) -> (Int, Int)) -> Double {
        var same = 0, all = 0
        for y in 0..<150 {
            for x in 0..<plain.width {
                let (tx, ty) = place(x, y)
                all += 1
                if zip(pixel(plain, x, y), pixel(turned, tx, ty)).allSatisfy({ abs($0 - $1) <= 10 }) { same += 1 }
            }
        }
        return Double(same) / Double(all)
    }

    @Test func halfTurnsAndMirrorsMoveEveryPixelWhereTheyShould() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = try await photo(.normal, to: folder + "/plain.png")
        let turned = try await photo(FrameOrientation(rotated180: true), to: folder + "/turned.png")
        let mirrored = try await photo(FrameOrientation(mirrored: true), to: folder + "/mirrored.png")
        let both = try await photo(FrameOrientation(rotated180: true, mirrored: true), to: folder + "/both.png")
        let (w, h) = (plain.width, plain.height)
        #expect(turned.width == w && turned.height == h)
        #expect(agreement(plain, turned) { (w - 1 - $0, h - 1 - $1) } > 0.99)
        #expect(agreement(plain, mirrored) { (w - 1 - $0, $1) } > 0.99)
        #expect(agreement(plain, both) { ($0, h - 1 - $1) } > 0.99)
        // And not by accident: the plain picture is not the same turned round.
        #expect(agreement(plain, plain) { (w - 1 - $0, h - 1 - $1) } < 0.5)
    }

    /// A Motion-JPEG camera's photo is its own JPEG unless something changes the pixels: turned, it must be
    /// encoded from the turned frame. The virtual camera's identity band (its colour, full width) is on top.
    @Test func aMotionJPEGCamerasPhotoIsTurnedTooAndItsJPEGsAreNotRecordedAsTheyAre() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = try await photo(pipeline: "mjpeg", device: "/dev/video10", .normal, to: folder + "/plain.jpg")
        let turned = try await photo(pipeline: "mjpeg", device: "/dev/video10", FrameOrientation(rotated180: true),
                                     to: folder + "/turned.jpg")
        let band = pixel(plain, 160, 10)
        #expect(zip(pixel(turned, 160, turned.height - 11), band).allSatisfy { abs($0 - $1) <= 24 }, "\(band)")
        #expect(!zip(pixel(turned, 160, 10), band).allSatisfy { abs($0 - $1) <= 24 })

        var configuration = CameraConfiguration(pipeline: "mjpeg", device: "/dev/video10", width: 320, height: 240)
        configuration.orientation = FrameOrientation(mirrored: true)
        let session = try CameraSession(configuration: configuration)
        try await session.start()
        defer { session.stop() }
        await #expect(throws: CameraError.turnedNotInCameraJPEG) {
            _ = try await session.startRecording(RecordingSettings(path: folder + "/clip.mkv", codec: .mjpeg))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["plain.jpg", "turned.jpg"])
    }

    @Test func aPointOnTheTurnedPictureIsTheCamerasOwnWhereItShows() {
        let point = NormalizedPoint(x: 0.2, y: 0.3)
        #expect(FrameOrientation.normal.unturned(point) == point)
        #expect(FrameOrientation(rotated180: true).unturned(point) == NormalizedPoint(x: 0.8, y: 0.7))
        #expect(FrameOrientation(mirrored: true).unturned(point) == NormalizedPoint(x: 0.8, y: 0.3))
        #expect(FrameOrientation(rotated180: true, mirrored: true).unturned(point) == NormalizedPoint(x: 0.2, y: 0.7))
    }

    /// `--focus point:0.25,0.25` with `--rotate 180` sets the camera's region around (0.75, 0.75) of its
    /// picture (the uvc profile's whole area is 1920x1080); `--rotate 90` is refused.
    @Test func gstcamFocusesWhereThePointShowsAndRefusesAQuarterTurn() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = try privateVirtualCameras("/dev/video40=uvc", in: folder)
        let whole = try gstcam(["get", "region_of_interest_rectangle", "--device", "/dev/video40"], environment: environment)
        #expect(whole.output == "region_of_interest_rectangle=0,0,1920x1080\n", "\(whole.output)")
        for (rotation, centre) in [("0", 0.25), ("180", 0.75)] {
            let result = try gstcam(["capture", "--device", "/dev/video40", "--rotate", rotation, "--focus", "point:0.25,0.25",
                                     "--immediate", "-o", folder + "/\(rotation).jpg"], environment: environment)
            #expect(result.status == 0, "\(result.error)")
            // "(the camera's region LEFT,TOP,WIDTHxHEIGHT)"
            let region = result.error.split(separator: "\n").first { $0.contains("the camera's region") } ?? ""
            let numbers = region.split(separator: "region ").last.map { $0.split { !$0.isNumber }.compactMap { Double($0) } } ?? []
            #expect(numbers.count == 4, "\(result.error)")
            if numbers.count == 4 {
                #expect(abs((numbers[0] + numbers[2] / 2) / 1920 - centre) < 0.02
                        && abs((numbers[1] + numbers[3] / 2) / 1080 - centre) < 0.02, "--rotate \(rotation): \(region)")
            }
        }
        let quarter = try gstcam(["capture", "--device", "/dev/video40", "--rotate", "90", "-o", folder + "/b.jpg"],
                                 environment: environment)
        #expect(quarter.status == 64 && quarter.error.contains("--rotate: \"90\" is not 0 or 180"), "\(quarter.error)")
    }
}
