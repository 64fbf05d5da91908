import Foundation
import Testing
@testable import CameraErrors
@testable import Session

@Suite struct SessionCaptureTests {
    @Test func photoFromARunningSessionIsAJPEGOfTheSceneWhilePreviewContinues() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let before = session.frameCount
        let photo = try await session.capturePhoto(to: folder + "/shot.jpg")
        try await Task.sleep(for: .milliseconds(300))
        let after = session.frameCount
        #expect(after >= before + 5, "preview frames kept arriving during and after the capture (\(before) → \(after))")
        #expect(photo.path == folder + "/shot.jpg")
        #expect(photo.width == 320 && photo.height == 240)
        #expect(photo.duration < .seconds(2))
        let data = try #require(FileManager.default.contents(atPath: photo.path))
        #expect(data.prefix(2) == Data([0xFF, 0xD8]))
        #expect(data.suffix(2) == Data([0xFF, 0xD9]))
        let image = try decodeImage(photo.path)
        #expect(image.width == 320 && image.height == 240)
        #expect(image.rgb.count == 320 * 240 * 3)
        // The leftmost SMPTE bar is 75% white, the second yellow, the third cyan.
        func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let offset = (y * 320 + x) * 3
            return (Int(image.rgb[offset]), Int(image.rgb[offset + 1]), Int(image.rgb[offset + 2]))
        }
        let white = pixel(20, 40), yellow = pixel(65, 40), cyan = pixel(110, 40)
        #expect(white.0 > 170 && white.1 > 170 && white.2 > 170)
        #expect(yellow.0 > 170 && yellow.1 > 170 && yellow.2 < 70)
        #expect(cyan.0 < 70 && cyan.1 > 170 && cyan.2 > 170)
        // No temporary file is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(leftovers == ["shot.jpg"])
    }

    @Test func tenCapturesGiveTenDistinctValidFilesAndNeverOverwrite() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 160, height: 120)
        defer { session.stop() }
        var photos: [Photo] = []
        for index in 0..<10 {
            photos.append(try await session.capturePhoto(to: folder + "/shot-\(index).jpg"))
        }
        #expect(Set(photos.map(\.path)).count == 10)
        for photo in photos {
            let data = try #require(FileManager.default.contents(atPath: photo.path))
            #expect(data.count > 500)
            #expect(data.prefix(2) == Data([0xFF, 0xD8]) && data.suffix(2) == Data([0xFF, 0xD9]))
        }
        let original = try #require(FileManager.default.contents(atPath: photos[0].path))
        await #expect(throws: CameraError.outputExists(path: photos[0].path)) {
            _ = try await session.capturePhoto(to: photos[0].path)
        }
        #expect(FileManager.default.contents(atPath: photos[0].path) == original)
        let replaced = try await session.capturePhoto(to: photos[0].path, overwrite: true)
        #expect(replaced.path == photos[0].path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 10)
    }

    @Test func outputErrorsComeBeforeTheCameraAndWriteNothing() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 160, height: 120)
        defer { session.stop() }
        let missing = folder + "/no-such-folder/shot.jpg"
        await #expect(throws: CameraError.outputNotWritable(path: missing, reason: "the directory \(folder)/no-such-folder does not exist")) {
            _ = try await session.capturePhoto(to: missing)
        }
        // A regular file where a folder should be.
        _ = FileManager.default.createFile(atPath: folder + "/plain", contents: Data("x".utf8))
        await #expect(throws: CameraError.outputNotWritable(path: folder + "/plain/shot.jpg", reason: "\(folder)/plain is not a directory")) {
            _ = try await session.capturePhoto(to: folder + "/plain/shot.jpg")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["plain"])
        #expect(session.state == .running)
    }
}
