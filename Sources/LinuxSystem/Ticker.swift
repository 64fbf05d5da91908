import Foundation

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
        let (ticks, continuation) = AsyncStream.makeStream(of: ContinuousClock.Instant.self,
                                                           bufferingPolicy: .bufferingNewest(1))
        let pause = timespec(tv_sec: Int(interval.components.seconds),
                             tv_nsec: Int(interval.components.attoseconds / 1_000_000_000))
        let thread = Thread {
            while true {
                var asked = pause, remaining = timespec()
                while nanosleep(&asked, &remaining) == -1 && errno == EINTR { asked = remaining }
                if case .terminated = continuation.yield(.now) { return }
            }
        }
        thread.name = "gstcam-ticker"
        thread.start()
        return ticks
    }
}
