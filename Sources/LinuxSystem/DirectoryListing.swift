import Glibc

/// Thin wrappers over opendir/readdir/readlink/read, which discovery uses instead of Foundation so that an
/// LD_PRELOAD'ed virtual camera (which answers these libc calls) is seen exactly like a kernel device.
public enum DirectoryListing {
    /// The names in `directory` (without "." and ".."), or [] when it cannot be read (e.g. /dev/v4l absent).
    public static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Where the symbolic link at `path` points, made absolute and normalized; nil if it is not a link.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let base = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return normalize(target.hasPrefix("/") ? target : base + "/" + target)
    }

    /// Removes ".", ".." and repeated slashes without touching the file system (device nodes need no realpath).
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The first line of a small text file (a sysfs attribute), or nil.
    public static func firstLine(of path: String) -> String? {
        guard let file = try? FileDescriptor.open(path, O_RDONLY), let bytes = try? file.read(count: 256, at: 0),
              !bytes.isEmpty else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
    }
}
