/// A video file format; `rawValue` is its file extension.
public enum VideoContainer: String, Sendable, Equatable {
    case mp4
    case webm
    /// Matroska: Motion-JPEG as the camera compressed it (`--codec mjpeg`).
    case mkv

    public var fileExtension: String { rawValue }

    /// The container an extension names ("mp4", "WebM", "mkv"), or nil for anything else.
    public init?(fileExtension: String) {
        self.init(rawValue: fileExtension.lowercased())
    }

    public var displayName: String {
        switch self {
        case .mp4: "MP4"
        case .webm: "WebM"
        case .mkv: "Matroska"
        }
    }
}

/// The names of a recording written in segments (`--segment`): `clip.mp4` gives `clip_00001.mp4`,
/// `clip_00002.mp4`… — splitmuxsink's `location` pattern (one %05d, a % in the name written %%).
public enum VideoSegmentNames {
    /// `clip.mp4` → `clip_%05d.mp4`.
    public static func pattern(for path: String) -> String {
        let escaped = path.replacing("%", with: "%%")
        guard let dot = escaped.lastIndex(of: "."), !escaped[dot...].contains("/") else { return escaped + "_%05d" }
        return escaped[..<dot] + "_%05d" + escaped[dot...]
    }

    /// File `index` (1 for the first) of `pattern`.
    public static func name(_ pattern: String, _ index: Int) -> String {
        let number = String(index)
        let padded = String(repeating: "0", count: max(0, 5 - number.count)) + number
        return pattern.replacing("%05d", with: padded).replacing("%%", with: "%")
    }
}
