import Glibc
import LinuxSystem

/// Where the user keeps pictures, found the way xdg-user-dirs defines it, and how it was found (so
/// `gstcam gallery` can say why photos go where they go).
public enum PicturesDirectorySource: Sendable, Equatable {
    /// Given explicitly (`--dir`, or `PhotoLibrary(directory:)`).
    case explicit
    /// The `GSTCAM_PHOTO_DIR` environment variable.
    case photoDirectoryVariable
    /// The `XDG_PICTURES_DIR` environment variable.
    case picturesVariable
    /// The `XDG_PICTURES_DIR=` line of this user-dirs.dirs file.
    case userDirectoriesFile(String)
    /// Neither was set: `~/Pictures`.
    case homePictures

    /// A stable word for scripts: "explicit", "GSTCAM_PHOTO_DIR", "XDG_PICTURES_DIR", "user-dirs.dirs",
    /// "default".
    public var key: String {
        switch self {
        case .explicit: "explicit"
        case .photoDirectoryVariable: "GSTCAM_PHOTO_DIR"
        case .picturesVariable: "XDG_PICTURES_DIR"
        case .userDirectoriesFile: "user-dirs.dirs"
        case .homePictures: "default"
        }
    }

    /// For people: "from XDG_PICTURES_DIR in /home/me/.config/user-dirs.dirs".
    public var explanation: String {
        switch self {
        case .explicit: "given with --dir"
        case .photoDirectoryVariable: "from $GSTCAM_PHOTO_DIR"
        case .picturesVariable: "from $XDG_PICTURES_DIR"
        case let .userDirectoriesFile(file): "from XDG_PICTURES_DIR in \(file)"
        case .homePictures: "the default: no XDG_PICTURES_DIR is set"
        }
    }
}

/// Reads `XDG_PICTURES_DIR` from the environment or from user-dirs.dirs.
enum PicturesDirectory {
    static let variable = "XDG_PICTURES_DIR"

    /// The Pictures folder (without the gstcam subfolder) and where that answer came from.
    static func resolve(in environment: PhotoEnvironment) -> (path: String, source: PicturesDirectorySource) {
        let home = environment.homeDirectory
        if let value = environment.value(variable), let path = expand(value, home: home) {
            return (path, .picturesVariable)
        }
        let file = userDirectoriesFile(in: environment)
        if let text = readText(file), let path = picturesLine(in: text, home: home) {
            return (path, .userDirectoriesFile(file))
        }
        return (FilePath.join(home, "Pictures"), .homePictures)
    }

    /// `$XDG_CONFIG_HOME/user-dirs.dirs`, where XDG_CONFIG_HOME defaults to ~/.config (relative values are
    /// ignored, as the XDG Base Directory spec requires).
    static func userDirectoriesFile(in environment: PhotoEnvironment) -> String {
        let configuration = environment.value("XDG_CONFIG_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? FilePath.join(environment.homeDirectory, ".config")
        return FilePath.join(configuration, "user-dirs.dirs")
    }

    /// The value of the last `XDG_PICTURES_DIR="…"` line, as xdg-user-dirs writes them: a double-quoted
    /// value that is either absolute or starts with `$HOME`, backslash escaping the next character.
    static func picturesLine(in text: String, home: String) -> String? {
        var found: String?
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var rest = Substring(line).drop(while: { $0 == " " || $0 == "\t" })
            guard rest.hasPrefix(variable) else { continue }
            rest = rest.dropFirst(variable.count).drop(while: { $0 == " " || $0 == "\t" })
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst().drop(while: { $0 == " " || $0 == "\t" })
            guard rest.first == "\"" else { continue }
            rest = rest.dropFirst()
            var value = ""
            var escaped = false
            var closed = false
            for character in rest {
                if escaped { value.append(character); escaped = false }
                else if character == "\\" { escaped = true }
                else if character == "\"" { closed = true; break }
                else { value.append(character) }
            }
            guard closed, let path = expand(value, home: home) else { continue }
            found = path
        }
        return found
    }

    /// "$HOME/Pictures" → "/home/me/Pictures"; an absolute path as is; anything else (relative) is not a
    /// usable directory and yields nil.
    static func expand(_ value: String, home: String) -> String? {
        if value == "$HOME" || value == "$HOME/" { return home }
        if value.hasPrefix("$HOME/") { return FilePath.join(home, String(value.dropFirst("$HOME/".count))) }
        if value.hasPrefix("/") { return value }
        return nil
    }

    private static func readText(_ path: String) -> String? {
        guard let file = try? FileDescriptor.open(path, O_RDONLY), let bytes = try? file.read(count: 1 << 16, at: 0) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
