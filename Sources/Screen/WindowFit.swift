import GStreamer
import LinuxSystem
import Session

/// The size the window branch scales the picture to (its `window-size` capsfilter, after a `videoscale`):
/// at first the frame fitted into the screen (less a margin for title bar and panels), so the window never opens
/// larger than the screen; then, for sinks that do not scale (ximagesink), the frame fitted into the window as
/// the user resizes it. The aspect ratio is kept; sinks that scale themselves (xvimagesink, glimagesink,
/// waylandsink: `force-aspect-ratio`, on by default) get only the first fit.
struct WindowFit: Equatable, Sendable {
    var width: Int
    var height: Int

    /// Share of the screen the window may take at first (the rest is left for decorations and panels).
    static let screenShare = 0.9

    /// `frame` scaled down (never up) to fit in `bounds`, keeping its aspect ratio; even sizes (YUV formats).
    static func fitting(_ frame: (width: Int, height: Int), into bounds: (width: Int, height: Int), enlarge: Bool = false) -> WindowFit {
        guard frame.width > 0, frame.height > 0, bounds.width > 0, bounds.height > 0 else {
            return WindowFit(width: frame.width, height: frame.height)
        }
        var scale = min(Double(bounds.width) / Double(frame.width), Double(bounds.height) / Double(frame.height))
        if !enlarge { scale = min(1, scale) }
        return WindowFit(width: max(16, Int(Double(frame.width) * scale) & ~1), height: max(16, Int(Double(frame.height) * scale) & ~1))
    }

    /// The first size: the frame within the screen's share.
    static func initial(frame: (width: Int, height: Int), screen: (width: Int, height: Int)?) -> WindowFit {
        guard let screen else { return WindowFit(width: frame.width, height: frame.height) }
        return fitting(frame, into: (Int(Double(screen.width) * screenShare), Int(Double(screen.height) * screenShare)))
    }

    var caps: String { "video/x-raw,width=\(width),height=\(height)" }

    /// Sinks that show frames at their own size in a window of any size (centred, cropped): the branch scales
    /// for them as the window changes.
    static let nonScalingSinks: Set = ["ximagesink"]
}
