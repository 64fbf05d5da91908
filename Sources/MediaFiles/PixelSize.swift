/// Width and height in pixels.
public struct PixelSize: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    /// "1920×1080".
    public var description: String { "\(width)×\(height)" }
}
