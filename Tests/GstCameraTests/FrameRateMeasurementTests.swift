import Foundation
import Testing
@testable import Screen
@testable import Session

/// The frame rate the status line and `preview --json` show: measured between frames' timestamps, so a steady
/// camera reads steady whenever the figure is taken (before, a whole number of frames over the timer's interval:
/// 29.9, 30.0 and 31.0 by turns, each one a new status line to draw).
@Suite struct FrameRateMeasurementTests {
    @Test func theRateIsFramesOverTheTimeBetweenTheNewestFrames() {
        let earlier = FrameTally(count: 30, newest: .seconds(1))
        let now = FrameTally(count: 60, newest: .seconds(2))
        // Read 1.04 s apart: the timer's lateness does not count.
        #expect(now.framesPerSecond(since: earlier, elapsed: .milliseconds(1040)) == 30)
        // 12.5 fps: 6 frames 0.48 s apart, read 0.55 s apart.
        let slow = FrameTally(count: 66, newest: .milliseconds(2480))
        #expect(slow.framesPerSecond(since: now, elapsed: .milliseconds(550)) == 12.5)
    }

    /// The first reading (since a tally of no frames) is measured from the first frame's time: 29 frames 33⅓ ms
    /// apart are 30 fps, whenever the camera's first frame came within the reading's second (over that second: 29).
    @Test func theFirstReadingIsMeasuredFromTheFirstFrame() throws {
        let tally = FrameTally(count: 29, newest: .nanoseconds(100_000_000 + 28 * 33_333_333), first: .milliseconds(100))
        let rate = try #require(tally.framesPerSecond(since: FrameTally(), elapsed: .seconds(1)))
        #expect(abs(rate - 30) < 0.001, "\(rate)")
    }

    @Test func withoutTimestampsOrNewFramesTheReadingsIntervalCounts() {
        let earlier = FrameTally(count: 10, newest: nil)
        #expect(FrameTally(count: 25, newest: nil).framesPerSecond(since: earlier, elapsed: .milliseconds(500)) == 30)
        // A camera that sent nothing since: 0, not a division by no time.
        let stalled = FrameTally(count: 10, newest: .seconds(3))
        #expect(stalled.framesPerSecond(since: stalled, elapsed: .seconds(1)) == 0)
        // Fewer frames than before: another session's tally, no rate.
        #expect(FrameTally(count: 3, newest: .seconds(4)).framesPerSecond(since: stalled, elapsed: .seconds(1)) == nil)
    }

    /// The virtual camera sends 30 frames a second; read at uneven moments (0.55 s, then 1.3 s later), the rate
    /// is still 30. Counting frames over the readings' interval gives 16 or 17 frames in 0.55 s: 29.1 or 30.9. The
    /// frames' times are when the camera's thread woke (as a driver stamps a frame when it completes), so a loaded
    /// machine moves them by a few milliseconds: 0.5 fps over 0.55 s is 9 ms.
    @Test func aRunningCameraReadsItsOwnRateWheneverItIsAsked() async throws {
        let session = try await startCamera("/dev/video0", width: 640, height: 480)
        defer { session.stop() }
        let cameraOperator = CameraOperator(session: session)
        try await Task.sleep(for: .milliseconds(300))
        cameraOperator.measureFrameRate()
        var rates: [Double] = []
        for pause in [550, 1300, 550] {
            try await Task.sleep(for: .milliseconds(pause))
            rates.append(cameraOperator.measureFrameRate())
        }
        #expect(rates.allSatisfy { abs($0 - 30) < 0.5 }, "\(rates)")
    }

    /// A screen's first reading of a camera that has just started (the status line's first figure) is its rate too,
    /// not the frames of a second that began before the first one.
    @Test func theFirstReadingOfANewCameraIsItsRate() async throws {
        let session = try await startCamera("/dev/video0", width: 640, height: 480)
        defer { session.stop() }
        let cameraOperator = CameraOperator(session: session)
        try await Task.sleep(for: .milliseconds(700))
        let rate = cameraOperator.measureFrameRate()
        #expect(abs(rate - 30) < 0.5, "\(rate)")
    }
}
