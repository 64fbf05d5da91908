import GStreamer
/// One preview frame, copied out of the pipeline: the current picture of the camera.
public struct Frame: Sendable {
    public let width: Int
    public let height: Int
    public let format: VideoFormat
    /// Bytes from one row to the next (GStreamer pads rows to 4 bytes).
    public let bytesPerRow: Int
    /// Presentation time of the frame in the pipeline's running time.
    public let timestamp: Duration
    /// Counts frames since the session started, from 1.
    public let number: Int
    public let bytes: [UInt8]

    public init(width: Int, height: Int, format: VideoFormat, bytesPerRow: Int, timestamp: Duration, number: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = bytesPerRow
        self.timestamp = timestamp
        self.number = number
        self.bytes = bytes
    }

    /// The red, green and blue values at (x, y) of an RGB frame.
    public func rgb(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        precondition(format == .rgb, "rgb(x:y:) reads RGB frames; this one is \(format)")
        let offset = y * bytesPerRow + x * 3
        return (bytes[offset], bytes[offset + 1], bytes[offset + 2])
    }
}
