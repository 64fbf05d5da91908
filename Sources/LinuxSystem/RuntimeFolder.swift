import Glibc

/// The folder the camera screen's socket lives in ($XDG_RUNTIME_DIR, or /tmp/gstcam-UID). A socket there is
/// trusted only when the folder is this user's alone: otherwise another user could create the folder first
/// (/tmp is shared), listen in it, and receive every capture request — and choose where photos are written.
public enum RuntimeFolder {
    /// Why `folder` cannot be trusted, or nil when it is a real directory (not a symbolic link) owned by this
    /// user that no one else may enter (mode 0700 or stricter).
    public static func distrust(_ folder: String) -> String? {
        var info = stat()
        guard lstat(folder, &info) == 0 else { return "\(folder) does not exist" }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(folder) is not a directory" }
        guard info.st_uid == getuid() else {
            return "\(folder) belongs to user \(info.st_uid), not to you (\(getuid()))"
        }
        guard info.st_mode & 0o077 == 0 else {
            return "\(folder) has mode \(String(info.st_mode & 0o777, radix: 8)); others may enter it (it must be 0700)"
        }
        return nil
    }

    /// The folder a socket path is in.
    public static func of(_ socketPath: String) -> String {
        guard let slash = socketPath.lastIndex(of: "/") else { return "." }
        return slash == socketPath.startIndex ? "/" : String(socketPath[..<slash])
    }

    /// Makes the fallback folder /tmp/gstcam-UID (mode 0700) if missing, and checks it either way.
    public static func makePrivate(_ folder: String) throws(PrivateFolderError) {
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw PrivateFolderError("cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        if lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 != 0 {
            chmod(folder, 0o700)  // ours, made by an older gstcam or by hand: close it rather than refuse
        }
        if let reason = distrust(folder) {
            throw PrivateFolderError("\(reason); remove it, or set XDG_RUNTIME_DIR to a private folder")
        }
    }
}

/// Why a private folder could not be made or trusted, in words that name the folder and the fix.
public struct PrivateFolderError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ description: String) { self.description = description }
}
