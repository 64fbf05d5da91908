import Foundation
import Testing
@testable import CameraErrors
@testable import Session

@Suite struct SessionFrameTests {
    @Test func previewFramesHaveTheRequestedSizeAndKeepComing() async throws {
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        #expect(session.state == .running)
        var seen: [Frame] = []
        for await frame in session.frames() {
            seen.append(frame)
            if seen.count == 5 { break }
        }
        #expect(seen.count == 5)
        for frame in seen {
            #expect(frame.width == 320)
            #expect(frame.height == 240)
            #expect(frame.format == .rgb)
            #expect(frame.bytes.count >= frame.bytesPerRow * 240)
        }
        #expect(seen.map(\.number) == seen.map(\.number).sorted())
        #expect(Set(seen.map(\.number)).count == 5)
        // SMPTE bars: the leftmost bar is 75% white, the second yellow.
        let white = seen[0].rgb(x: 10, y: 20)
        #expect(white.red > 170 && white.green > 170 && white.blue > 170)
        let yellow = seen[0].rgb(x: 60, y: 20)
        #expect(yellow.red > 170 && yellow.green > 170 && yellow.blue < 60)
    }

    @Test func stopBringsThePipelineDownAndEndsTheStreams() async throws {
        let session = try await startTestPattern()
        let frames = session.frames()
        session.stop()
        #expect(session.state == .stopped)
        var count = 0
        for await _ in frames { count += 1 }
        #expect(count <= 1)
        await #expect(throws: CameraError.notRunning(state: "stopped")) {
            _ = try await session.capturePhoto(to: "/tmp/never.jpg")
        }
    }

    /// `gstcam capture` (issue 13): a session only for photos has no preview branch to link or negotiate, yet
    /// counts frames, ends `frames()` at once, and takes a photo of the camera's picture.
    @Test func aSessionForPhotosOnlyHasNoPreviewBranchYetCountsFramesAndTakesPhotos() async throws {
        var configuration = CameraConfiguration(pipeline: "test-pattern", width: 320, height: 240)
        configuration.previewFrames = false
        let session = try CameraSession(configuration: configuration)
        try await session.start()
        defer { session.stop() }
        let pipeline = try #require(session.shared.withLock { $0.pipeline?.pipeline })
        #expect(pipeline.child(named: "preview") == nil)
        var delivered = 0
        for await _ in session.frames() { delivered += 1 }
        #expect(delivered == 0)
        for await number in session.frameNumbers() where number >= 5 { break }
        #expect(session.frameCount >= 5)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = try await session.capturePhoto(to: folder + "/bars.jpg")
        #expect(photo.width == 320 && photo.height == 240)
        // SMPTE bars: the leftmost bar is 75% white, the second yellow.
        let pixels = try MotionJPEGTablesTests.decoded(photo.path)
        func rgb(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[(y * 320 + x) * 3..<(y * 320 + x) * 3 + 3]) }
        #expect(rgb(10, 20).allSatisfy { $0 > 170 })
        #expect(rgb(60, 20)[0] > 170 && rgb(60, 20)[1] > 170 && rgb(60, 20)[2] < 60)
    }

    /// The shipped pipeline files have no preview branch of their own: a session gets pipelines/preview.branch at
    /// the tee when `frames()` is first read, not before (issue 13: a window or `--sink none` sets up no converter
    /// for nobody), and keeps it for later readers.
    @Test func theFirstReaderOfFramesGetsThePreviewBranchAtTheTee() async throws {
        let session = try await startTestPattern(width: 160, height: 120)
        defer { session.stop() }
        let pipeline = try #require(session.shared.withLock { $0.pipeline?.pipeline })
        for await number in session.frameNumbers() where number >= 3 { break }
        #expect(pipeline.child(named: "preview") == nil)
        for await frame in session.frames() {
            #expect(frame.format == .rgb && frame.width == 160 && frame.height == 120)
            break
        }
        #expect(pipeline.child(named: "preview") != nil)
        var again = 0
        for await _ in session.frames() {
            again += 1
            if again == 2 { break }
        }
        #expect(again == 2)
        #expect(session.shared.withLock { shared in
            if case .attached = shared.previewBranch { true } else { false }
        })
    }

    /// A reader that comes before the session runs gets frames once it does.
    @Test(.timeLimit(.minutes(1))) func aReaderBeforeTheStartGetsFrames() async throws {
        let session = try CameraSession(configuration: CameraConfiguration(pipeline: "test-pattern", width: 160, height: 120))
        defer { session.stop() }
        let frames = session.frames()
        try await session.start()
        var seen: Frame?
        for await frame in frames { seen = frame; break }
        #expect(seen?.width == 160 && seen?.format == .rgb)
    }

    /// A preview frame keeps the number it was counted with where it entered the tee: the test pattern stamps frame
    /// n at n/120 s, so the number and the timestamp advance together, whatever the branch's queue dropped. At
    /// 1920x1080 and 120 fps newer frames enter the tee while one is converted.
    @Test func previewFramesKeepTheNumbersTheyWereCountedWith() async throws {
        let session = try await startTestPattern(width: 1920, height: 1080, framerate: 120)
        defer { session.stop() }
        var seen: [Frame] = []
        for await frame in session.frames() {
            seen.append(frame)
            if seen.count == 10 { break }
        }
        let frameTime = 1.0 / 120
        let offsets = seen.map { $0.timestamp.inSeconds / frameTime - Double($0.number) }
        #expect(offsets.allSatisfy { abs($0 - offsets[0]) < 0.1 }, "\(offsets)")
    }
}
