/// When the shots of a timelapse are due: tick k at `start + k × interval`. A shot that is ready early
/// waits for its tick; one that is ready late (the previous shot took longer than the interval) is taken at
/// once, for the newest tick already passed, and the ticks passed over are counted as missed — reported
/// with the shot, never skipped silently.
struct BurstSchedule: Sendable {
    let start: ContinuousClock.Instant
    let interval: Duration
    /// The first tick not used yet.
    private(set) var nextTick = 0

    init(start: ContinuousClock.Instant, interval: Duration) {
        precondition(interval > .zero, "a timelapse needs a positive interval")
        self.start = start
        self.interval = interval
    }

    /// The tick the next shot belongs to, for a shot ready at `now`: when to take it (`now` or later) and how
    /// many ticks were missed before it, and how late it is for its tick. Uses the tick up.
    mutating func nextShot(readyAt now: ContinuousClock.Instant)
        -> (due: ContinuousClock.Instant, missed: Int, late: Duration) {
        let due = start + interval * nextTick
        guard now > due else {
            nextTick += 1
            return (due, 0, .zero)
        }
        let newestPassed = Int((now - start) / interval)
        let tick = max(nextTick, newestPassed)
        defer { nextTick = tick + 1 }
        return (now, tick - nextTick, now - (start + interval * tick))
    }
}
