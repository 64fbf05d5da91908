/// One photo of a burst or timelapse (`CameraSession.photos(count:interval:into:format:)`).
public struct BurstPhoto: Sendable, Equatable {
    /// 1 for the first photo of the sequence; consecutive even when intervals were missed.
    public let number: Int
    public let photo: Photo
    /// Timelapse intervals that passed without a photo before this one because the camera (encoding,
    /// writing) was slower than the interval asked for. Always 0 in a burst.
    public let missedIntervals: Int
    /// How long after its scheduled time the photo was requested (zero when on time, and in a burst).
    public let late: Duration

    public init(number: Int, photo: Photo, missedIntervals: Int = 0, late: Duration = .zero) {
        self.number = number
        self.photo = photo
        self.missedIntervals = missedIntervals
        self.late = late
    }
}
