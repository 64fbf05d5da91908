import Glibc

/// Ticks for loops that run as long as a camera does (the screen's status line, the camera list, waiting for
/// a camera to come back), from a thread of their own that sleeps between ticks.
///
/// Why not `Task.sleep` in a loop: on this toolchain every `Task.sleep` wakes through a libdispatch timer whose
/// continuation lands in a worker thread's cache; four a second made a preview's memory grow ~0.3 kB/s for its
/// first ten minutes (docs/reliability.md has the measurement). A sleeping thread costs one stack and nothing
/// per tick.
public enum Ticker {
    /// The time of each tick, every `interval`, until the loop reading them ends (the thread then stops within
    /// one interval). A slow reader gets the latest tick, never a backlog.
    public static func every(_ interval: Duration) -> AsyncStream<ContinuousClock.Instant> {
        ticks(every: interval).stream
    }

    /// Ticks that come every `interval` on a fixed grid (`start` + `interval`, + 2 `interval`…, the first after
    /// now; each at or after its grid time), once at `moment` if given, and at once whenever `Ticks.tickNow()` is
    /// called: for a loop that does its regular work seldom but must react to an event or an end time without
    /// polling often.
    public static func ticks(every interval: Duration, from start: ContinuousClock.Instant = .now,
                             alsoAt moment: ContinuousClock.Instant? = nil) -> Ticks {
        let (stream, continuation) = AsyncStream.makeStream(of: ContinuousClock.Instant.self,
                                                            bufferingPolicy: .bufferingNewest(1))
        BlockingThread.start(named: "gstcam-ticker") {
            let clock = ContinuousClock()
            var next = start + interval
            let now = clock.now
            while next <= now { next += interval }
            var moment = moment
            while true {
                let target = moment.map { min($0, next) } ?? next
                sleep(for: target - clock.now)
                if target == moment {
                    moment = nil
                } else {
                    // A thread held up past whole intervals skips them rather than ticking in a burst.
                    let now = clock.now
                    repeat { next += interval } while next <= now
                }
                if case .terminated = continuation.yield(clock.now) { return }
            }
        }
        return Ticks(stream: stream, continuation: continuation)
    }

    private static func sleep(for duration: Duration) {
        guard duration > .zero else { return }
        var asked = timespec(tv_sec: Int(duration.components.seconds),
                             tv_nsec: Int(duration.components.attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&asked, &remaining) == -1 && errno == EINTR { asked = remaining }
    }

    /// A stream of ticks and the way to add one now.
    public struct Ticks: Sendable {
        public let stream: AsyncStream<ContinuousClock.Instant>
        fileprivate let continuation: AsyncStream<ContinuousClock.Instant>.Continuation

        /// A tick at once, between the regular ones (they stay on their grid).
        public func tickNow() { continuation.yield(.now) }
    }
}
