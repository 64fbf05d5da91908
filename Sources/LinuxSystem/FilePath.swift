/// The few path manipulations photo files need, on plain strings (paths are what users type and see).
public enum FilePath {
    /// "a/b/c.jpg" → "c.jpg"; "c.jpg" → "c.jpg".
    public static func lastComponent(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// "a/b/c.jpg" → "a/b"; "c.jpg" → "."; "/c.jpg" → "/".
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// A relative path made absolute against the current directory, so printed paths work from anywhere.
    public static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let current = SystemCalls.currentDirectory() else { return path }
        if path == "." { return current }
        return join(current, path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }

    /// "IMG_1.jpg" → ("IMG_1", "jpg"); "README" → ("README", nil).
    public static func splitExtension(_ name: String) -> (stem: String, extension: String?) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, nil) }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}
