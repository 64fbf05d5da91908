import Testing
@testable import Session

/// Preview frames are converted (to RGB) only while someone reads `frames()` (issue 13): a photo, a window or
/// `--sink none` does not pay for a conversion nobody looks at. Frames are still counted meanwhile (the first
/// frame, the stall watch, `frameCount` and the numbers `frames()` gives all rely on it).
@Suite struct PreviewConversionTests {
    @Test func framesNobodyReadsAreCountedButNotConverted() async throws {
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        for _ in 0..<200 where session.frameCount < 10 { try await Task.sleep(for: .milliseconds(20)) }
        let counted = session.frameCount
        #expect(counted >= 10)
        #expect(session.shared.withLock { $0.convertedFrames } == 0)

        // A reader gets converted frames at once, numbered after the ones counted unread.
        var seen: [Frame] = []
        for await frame in session.frames() {
            seen.append(frame)
            if seen.count == 3 { break }
        }
        #expect(seen.count == 3)
        #expect(seen.allSatisfy { $0.format == .rgb && $0.width == 320 && $0.height == 240 })
        #expect(seen.allSatisfy { $0.number > counted })
        let white = seen[0].rgb(x: 10, y: 20)  // SMPTE bars: the leftmost is 75% white
        #expect(white.red > 170 && white.green > 170 && white.blue > 170)
        #expect(session.shared.withLock { $0.convertedFrames } >= 3)

        // Once the reader has gone, counting goes on without converting.
        try await Task.sleep(for: .milliseconds(100))
        let converted = session.shared.withLock { $0.convertedFrames }
        let before = session.frameCount
        for _ in 0..<200 where session.frameCount < before + 5 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(session.frameCount >= before + 5)
        #expect(session.shared.withLock { $0.convertedFrames } <= converted + 1)
    }

    @Test(.timeLimit(.minutes(1))) func frameNumbersCountFramesWithoutConvertingThem() async throws {
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let start = session.frameCount
        var numbers: [Int] = []
        for await number in session.frameNumbers() {
            numbers.append(number)
            if numbers.count == 5 { break }
        }
        #expect(numbers.count == 5)
        #expect(numbers == numbers.sorted() && Set(numbers).count == 5 && numbers[0] > start)
        #expect(session.shared.withLock { $0.convertedFrames } == 0)
        let ended = session.frameNumbers()
        session.stop()
        var after = 0
        for await _ in ended { after += 1 }
        #expect(after <= 1)
    }
}
