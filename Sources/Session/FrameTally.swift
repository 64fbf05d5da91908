/// The preview frames a session has counted, and the timestamp of the newest: a frame rate measured between two
/// tallies divides by the time between frames, not by when someone happened to look. Read once a second from a
/// timer that wakes a few milliseconds late or early, a 30 fps camera gave 29.9, 30.0 and 31.0 by turns, and each
/// new figure redrew the window's status line.
public struct FrameTally: Sendable, Equatable {
    /// Preview frames so far (`CameraSession.frameCount`).
    public var count = 0
    /// The newest frame's presentation time (the camera's capture time in the pipeline's running time); nil before
    /// the first frame, or when frames carry no time.
    public var newest: Duration?
    /// The first frame's presentation time: a rate since a tally of no frames is measured from it, not over a
    /// second that began before the camera's first frame (which showed a 30 fps camera as 28.6 fps at first).
    public var first: Duration?

    public init(count: Int = 0, newest: Duration? = nil, first: Duration? = nil) {
        self.count = count
        self.newest = newest
        self.first = first
    }

    /// Frames per second from `earlier` to this tally: between the two newest frames' times when both have one
    /// (from the first frame when `earlier` counted none), else over `elapsed` (the time between the two readings); nil when `earlier` is not an earlier tally of the
    /// same session (fewer frames counted).
    public func framesPerSecond(since earlier: FrameTally, elapsed: Duration) -> Double? {
        let frames = count - earlier.count
        guard frames >= 0 else { return nil }
        if earlier.count == 0, count >= 2, let first, let newest, newest > first {
            return Double(count - 1) / (newest - first).inSeconds
        }
        if frames > 0, let newest, let before = earlier.newest, newest > before {
            return Double(frames) / (newest - before).inSeconds
        }
        let seconds = elapsed.inSeconds
        return seconds > 0 ? Double(frames) / seconds : nil
    }
}
