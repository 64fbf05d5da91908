import Controls

/// How the camera's picture is turned before anything sees it: a camera mounted upside down (`--rotate 180`),
/// or a mirror-like view (`--mirror`). Everything after the zoom stage — preview, window, photos, recordings,
/// the network — gets the turned picture (pipelines/orientation.stage); the camera's own JPEGs (a Motion-JPEG
/// camera's photos, `--codec mjpeg`) are not turned, so they are not used as they are. A quarter turn is not
/// offered: the picture's width and height would swap under every branch.
public struct FrameOrientation: Sendable, Equatable {
    public var rotated180: Bool
    public var mirrored: Bool

    public init(rotated180: Bool = false, mirrored: Bool = false) {
        self.rotated180 = rotated180
        self.mirrored = mirrored
    }

    public static let normal = FrameOrientation()

    public var isNormal: Bool { !rotated180 && !mirrored }

    /// videoflip's `video-direction` (a half turn and a mirror make an upside-down flip).
    var videoDirection: String {
        switch (rotated180, mirrored) {
        case (false, false): "identity"
        case (true, false): "180"
        case (false, true): "horiz"
        case (true, true): "vert"
        }
    }

    /// The point of the camera's own picture that shows at `point` of the turned one (what a click on the window
    /// or the web page means to the camera's focus region).
    public func unturned(_ point: NormalizedPoint) -> NormalizedPoint {
        NormalizedPoint(x: rotated180 != mirrored ? 1 - point.x : point.x, y: rotated180 ? 1 - point.y : point.y)
    }
}
