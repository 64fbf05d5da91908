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
}
