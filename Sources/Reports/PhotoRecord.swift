import Session

/// A saved photo, as `capture --json`, the camera screen and bursts print it (docs/photos.md).
public struct PhotoRecord: Encodable, Equatable {
    public var path: String
    public var width: Int
    public var height: Int
    /// From the request to the file written; nil where the photo was not timed here (the screen's picker).
    public var milliseconds: Int?
    /// The photo's place in a burst or timelapse, from 1.
    public var number: Int?
    /// Intervals of a timelapse skipped because the camera was slower, and how late this photo was.
    public var missedIntervals: Int?
    public var lateMilliseconds: Int?
    /// The camera mode the session ran in.
    public var mode: ModeRecord?
    /// The camera screen's socket, when a running screen took the photo.
    public var session: String?

    public init(_ photo: Photo, timed: Bool = true, mode: ModeRecord? = nil, session: String? = nil) {
        path = photo.path
        width = photo.width
        height = photo.height
        milliseconds = timed ? photo.duration.milliseconds : nil
        self.mode = mode
        self.session = session
    }

    public init(path: String, width: Int, height: Int, milliseconds: Int?, session: String?) {
        self.path = path
        self.width = width
        self.height = height
        self.milliseconds = milliseconds
        self.session = session
    }

    enum CodingKeys: String, CodingKey {
        case path, width, height, milliseconds, number, mode, session
        case missedIntervals = "missed_intervals"
        case lateMilliseconds = "late_milliseconds"
    }
}

extension Duration {
    /// Whole milliseconds (rounded down), as every record prints durations.
    public var milliseconds: Int {
        Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
    }
}
