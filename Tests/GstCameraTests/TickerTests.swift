import Testing
import LinuxSystem

/// The ticker the camera screen's loop waits on: a tick a second, but woken at once by the session's events and at
/// `--duration`'s end (issue 13: the loop no longer polls four times a second to notice them).
@Suite struct TickerTests {
    private static let clock = ContinuousClock()

    /// The next tick, or nil if none comes within `limit` (a ticker that misses its wake-up must fail the test, not
    /// hang it for the interval).
    private static func nextTick(of ticker: Ticker.Ticks, within limit: Duration) async -> ContinuousClock.Instant? {
        await withTaskGroup(of: ContinuousClock.Instant?.self) { group in
            group.addTask {
                var ticks = ticker.stream.makeAsyncIterator()
                return await ticks.next()
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func tickNowWakesTheReaderOfAnHourlyTickerAtOnce() async {
        let ticker = Ticker.ticks(every: .seconds(3600))
        let asked = Self.clock.now
        Task {
            try? await Task.sleep(for: .milliseconds(100))
            ticker.tickNow()
        }
        let tick = await Self.nextTick(of: ticker, within: .seconds(3))
        #expect(tick != nil, "no tick came within 3 s of tickNow()")
        if let tick { #expect(tick - asked >= .milliseconds(100)) }
    }

    @Test func theMomentGivesATickOfItsOwnAndTheGridGoesOn() async throws {
        let start = Self.clock.now
        let ticker = Ticker.ticks(every: .milliseconds(800), alsoAt: start + .milliseconds(200))
        let atMoment = try #require(await Self.nextTick(of: ticker, within: .seconds(3)))
        let onGrid = try #require(await Self.nextTick(of: ticker, within: .seconds(3)))
        #expect(atMoment - start >= .milliseconds(200))
        #expect(atMoment - start < .milliseconds(700), "the moment's tick came \(atMoment - start) after the start")
        #expect(onGrid - start >= .milliseconds(800), "the grid's first tick came \(onGrid - start) after the start")
        #expect(onGrid - start < .milliseconds(1500))
    }
}
