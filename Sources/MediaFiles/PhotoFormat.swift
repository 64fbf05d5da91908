import LinuxSystem
/// The file formats a photo can be saved in.
public enum PhotoFormat: String, Sendable, CaseIterable, Codable {
    case jpeg
    case png

    /// The extension new photos get (without the dot).
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        }
    }

    /// The format an extension names ("jpg", "JPEG", "png"…), or nil for anything else.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        default: return nil
        }
    }

    /// The format a file name's extension names, e.g. `PhotoFormat(path: "out/cat.PNG") == .png`.
    public init?(path: String) {
        let name = FilePath.lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(fileExtension: String(name[name.index(after: dot)...]))
    }
}
