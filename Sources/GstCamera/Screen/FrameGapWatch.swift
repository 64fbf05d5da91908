/// Notices when a running camera stops delivering frames (a stalled camera keeps its session `running` with
/// 0 fps) and when frames come back, for the camera screen's "No frames from … for N s".
public struct FrameGapWatch: Sendable {
    /// How long without a new frame counts as stalled: longer than any frame interval a camera screen uses
    /// (≥ 1 fps) plus scheduling hiccups on a loaded machine.
    public static let threshold = Duration.seconds(3)

    public enum Reading: Sendable, Equatable {
        case flowing
        /// No new frame for this many whole seconds (≥ the threshold).
        case stalled(seconds: Int)
        /// Frames came back after a stall of this many seconds.
        case resumed(seconds: Int)
    }

    private var lastCount: Int
    private var lastFrameAt: ContinuousClock.Instant
    private var reported = false
    public private(set) var isStalled = false

    public init(count: Int, at now: ContinuousClock.Instant) {
        lastCount = count
        lastFrameAt = now
    }

    /// Reads the session's frame count at `now`.
    public mutating func update(count: Int, at now: ContinuousClock.Instant) -> Reading {
        let gap = now - lastFrameAt
        if count != lastCount {
            lastCount = count
            lastFrameAt = now
            guard isStalled else { return .flowing }
            isStalled = false
            reported = false
            return .resumed(seconds: Int(gap.inSeconds.rounded()))
        }
        guard gap >= Self.threshold else { return .flowing }
        isStalled = true
        return .stalled(seconds: Int(gap.inSeconds))
    }

    /// True once per stall: the first time it is seen (stderr gets one line, not one a second).
    public mutating func shouldReport() -> Bool {
        defer { reported = true }
        return !reported
    }
}
