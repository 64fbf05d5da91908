/// A photo written by a session.
public struct Photo: Sendable, Equatable {
    /// Where the photo is (after the atomic rename).
    public let path: String
    public let width: Int
    public let height: Int
    /// From the request to the file being in place.
    public let duration: Duration

    public init(path: String, width: Int, height: Int, duration: Duration) {
        self.path = path
        self.width = width
        self.height = height
        self.duration = duration
    }
}
