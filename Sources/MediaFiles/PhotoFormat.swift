import Glibc
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

extension PhotoFormat {
    /// Why a photo in `format` (nil: from the name) must not be written to `path`, or nil when it may: a name
    /// whose extension is no photo format gstcam writes (`x.webp` would get a JPEG), or one that names another
    /// format than `format` (`--format png -o x.jpg` would be a PNG called .jpg). Names without an extension,
    /// and devices or pipes that exist (e.g. /dev/stdout), take any format.
    public static func problem(writing format: PhotoFormat?, to path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG { return nil }
        let name = FilePath.lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let stem = String(name[..<dot]), given = String(name[name.index(after: dot)...])
        guard let named = PhotoFormat(fileExtension: given) else {
            let suggestion = (format ?? .jpeg).fileExtension
            return "\(path): .\(given) is not a photo format gstcam writes; name it \(stem).\(suggestion) "
                + "(JPEG: .jpg or .jpeg; PNG: .png)"
        }
        guard let format, format != named else { return nil }
        return "\(path) is named .\(given), which is \(named.displayName), but the photo is to be \(format.displayName): "
            + "name it \(stem).\(format.fileExtension), or leave the format to the name"
    }

    /// "JPEG", "PNG"
    public var displayName: String { rawValue.uppercased() }
}
