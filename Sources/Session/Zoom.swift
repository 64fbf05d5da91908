/// A zoom setting: the factor and the point it zooms towards.
public struct Zoom: Sendable, Equatable, CustomStringConvertible {
    /// 1 shows the whole frame; 2 shows half the width and half the height, magnified.
    public var factor: Double
    /// The point zoomed towards, normalized (0…1, 0…1 from the top left); the crop stays inside the frame,
    /// so near an edge the point is not at the centre of the view.
    public var centerX: Double
    public var centerY: Double
    /// The part of `factor` the lens provides (`zoom_absolute`); the rest, `digitalFactor`, is cropping.
    /// Set by the session when it applies the zoom; 1 for cameras without optical zoom.
    public internal(set) var opticalFactor: Double = 1
    public var digitalFactor: Double { factor / opticalFactor }

    public static let none = Zoom(factor: 1)

    /// Whether frames leave the zoom stage with the camera's own pixels (no cropping), so a photo may be the
    /// camera's own image.
    var keepsCameraPixels: Bool { abs(digitalFactor - 1) < 1e-9 }

    /// The largest digital zoom factor offered (the crop also never gets smaller than 32 pixels).
    public static let maximumDigitalFactor = 8.0

    public init(factor: Double, centerX: Double = 0.5, centerY: Double = 0.5) {
        self.factor = factor
        self.centerX = centerX
        self.centerY = centerY
    }

    public var description: String {
        var text = Self.format(factor)
        if opticalFactor > 1 { text += " (optical \(Self.format(opticalFactor)), digital \(Self.format(digitalFactor)))" }
        return centerX == 0.5 && centerY == 0.5 ? text : text + " towards (\(centerX), \(centerY))"
    }

    private static func format(_ factor: Double) -> String {
        factor == factor.rounded() ? "\(Int(factor))×" : "\((factor * 100).rounded() / 100)×"
    }
}
