import FoundationEssentials
import Glibc
import CameraErrors
import LinuxSystem

/// The desktop trash of the freedesktop.org Trash specification 1.0, which file managers (Files, Dolphin, Thunar),
/// `gio trash` and trash-cli share: a file moved there can be restored from any of them.
///
/// A file on the home trash's filesystem goes to the home trash, `$XDG_DATA_HOME/Trash` (default
/// `~/.local/share/Trash`). A file on another filesystem goes to that filesystem's trash: `$topdir/.Trash/$uid`
/// when an administrator made `$topdir/.Trash` (sticky, not a link), else `$topdir/.Trash-$uid`. Files are only
/// ever renamed (rename(2) within one filesystem), never copied; where no trash can be had on the file's own
/// filesystem the move is refused and nothing changes.
///
/// The `info/NAME.trashinfo` file is written (O_EXCL, which also claims NAME) before the file moves to
/// `files/NAME`, as the specification requires, so a crash between the two leaves an info file without a file
/// (which trash readers ignore) and never a trashed file nobody can restore.
public struct Trash: Sendable {
    public let environment: PhotoEnvironment

    public init(environment: PhotoEnvironment = .current) {
        self.environment = environment
    }

    /// The home trash: `$XDG_DATA_HOME/Trash`, or `~/.local/share/Trash` when XDG_DATA_HOME is unset or relative
    /// (the base directory specification ignores relative values).
    public var homeTrash: String {
        if let data = environment.value("XDG_DATA_HOME"), data.hasPrefix("/") { return FilePath.join(data, "Trash") }
        return FilePath.join(environment.homeDirectory, ".local/share/Trash")
    }

    /// Where a trashed file went.
    public struct TrashedFile: Sendable, Equatable {
        /// The path the file had.
        public let originalPath: String
        /// `TRASH/files/NAME`: the file now.
        public let trashedPath: String
        /// `TRASH/info/NAME.trashinfo`: what restoring reads.
        public let infoPath: String
    }

    /// Moves the file at `path` (a regular file or symbolic link; a directory is refused) to the trash of its
    /// filesystem.
    @discardableResult
    public func moveToTrash(_ path: String) throws(CameraError) -> TrashedFile {
        let original = Self.canonical(FilePath.absolute(path))
        let status: stat
        do {
            status = try SystemCalls.linkStatus(original)
        } catch {
            throw .trashFailed(path: original, reason: error.code == ENOENT ? "it does not exist (any more)"
                               : "it cannot be examined: " + CameraError.errnoText(error.code), fix: "Nothing was changed.")
        }
        guard !status.isDirectory else {
            throw .trashFailed(path: original, reason: "it is a directory", fix: "Only photo and video files are moved to the trash here.")
        }
        let (trash, recordedPath) = try trashDirectory(for: original, device: status.st_dev)
        let files = FilePath.join(trash, "files")
        let info = FilePath.join(trash, "info")
        try makeDirectory(trash, mode: 0o700, for: original)
        try makeDirectory(files, mode: 0o700, for: original)
        try makeDirectory(info, mode: 0o700, for: original)
        let name = try claimName(for: original, files: files, info: info,
                                 contents: Self.infoContents(path: recordedPath, deletedAt: environment.now(), environment: environment))
        let infoPath = FilePath.join(info, name + ".trashinfo")
        let trashedPath = FilePath.join(files, name)
        do {
            try SystemCalls.rename(original, trashedPath)
        } catch {
            try? SystemCalls.unlink(infoPath)
            if error.code == EXDEV {
                // The same device number across a bind mount: still not a rename(2) away.
                throw .trashFailed(path: original, reason: "the trash \(trash) is on another mount than the file, and files are "
                                   + "never copied into the trash", fix: "Delete the file itself (rm) if it should go.")
            }
            throw .trashFailed(path: original, reason: "it could not be moved to \(trashedPath): " + CameraError.errnoText(error.code),
                               fix: error.code == EACCES || error.code == EPERM
                                   ? "Its folder must be writable by you (chmod u+w \(FilePath.directory(of: original)))."
                                   : "Nothing was changed.")
        }
        return TrashedFile(originalPath: original, trashedPath: trashedPath, infoPath: infoPath)
    }

    /// `path` with its folder's symbolic links, "." and ".." resolved (realpath(3)) but its own name kept, so the info
    /// file records where the file really was and a link is trashed as a link.
    static func canonical(_ path: String) -> String {
        let folder = FilePath.directory(of: path)
        guard let resolved = realpath(folder, nil) else { return path }
        defer { free(resolved) }
        return FilePath.join(String(cString: resolved), FilePath.lastComponent(of: path))
    }

    /// The `.trashinfo` text: the original path percent-encoded as in a URI path, and the local time of deletion.
    static func infoContents(path: String, deletedAt date: Date, environment: PhotoEnvironment) -> String {
        let deleted = LocalTime(in: environment, at: date).display.replacing(" ", with: "T")
        return "[Trash Info]\nPath=\(percentEncoded(path))\nDeletionDate=\(deleted)\n"
    }

    /// Every byte except unreserved URI characters and "/" as %XX (what g_uri_escape_string does for trash files).
    static func percentEncoded(_ path: String) -> String {
        var text = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "/"):
                text.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = Array("0123456789ABCDEF")
                text += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return text
    }

    /// The trash for a file on `device`, and the path its info file records (absolute for the home trash,
    /// relative to the filesystem's top directory for a top-directory trash, as the specification asks).
    func trashDirectory(for path: String, device: dev_t) throws(CameraError) -> (trash: String, recordedPath: String) {
        let home = homeTrash
        if Self.device(ofNearestExisting: home) == device { return (home, path) }
        let top = Self.topDirectory(of: path, device: device)
        let relative = top == "/" ? String(path.dropFirst()) : String(path.dropFirst(top.count + 1))
        let uid = getuid()
        // The administrator's shared trash first: $topdir/.Trash, sticky and not a link, with a folder per user.
        let shared = FilePath.join(top, ".Trash")
        if let status = try? SystemCalls.linkStatus(shared), status.isDirectory, status.st_mode & S_ISVTX != 0 {
            let mine = FilePath.join(shared, String(uid))
            if (try? SystemCalls.mkdir(mine, mode: 0o700)) != nil || Self.isOwnDirectory(mine, uid: uid) {
                return (mine, relative)
            }
        }
        let own = FilePath.join(top, ".Trash-\(uid)")
        if (try? SystemCalls.mkdir(own, mode: 0o700)) != nil || Self.isOwnDirectory(own, uid: uid) {
            return (own, relative)
        }
        throw .trashFailed(path: path, reason: "it is on another filesystem (mounted at \(top)) than the home trash \(home), and "
                           + "no trash folder can be made there (\(own))",
                           fix: "Make \(top) writable for you so \(own) can be created, or delete the file itself (rm); "
                               + "it is never copied across filesystems.")
    }

    /// A directory (not a link to one) that `uid` owns: the specification's condition for using a trash folder.
    static func isOwnDirectory(_ path: String, uid: uid_t) -> Bool {
        guard let status = try? SystemCalls.linkStatus(path) else { return false }
        return status.isDirectory && status.st_uid == uid
    }

    /// The device of `path`, or of its nearest existing parent (a trash not made yet will be made there).
    static func device(ofNearestExisting path: String) -> dev_t? {
        var candidate = path
        while true {
            if let status = try? SystemCalls.status(candidate) { return status.st_dev }
            if candidate == "/" || candidate == "." { return nil }
            candidate = FilePath.directory(of: candidate)
        }
    }

    /// The mount point above `path`: the last parent still on `device`.
    static func topDirectory(of path: String, device: dev_t) -> String {
        var top = FilePath.directory(of: path)
        while top != "/" {
            let parent = FilePath.directory(of: top)
            guard let status = try? SystemCalls.status(parent), status.st_dev == device else { break }
            top = parent
        }
        return top
    }

    private func makeDirectory(_ path: String, mode: mode_t, for file: String) throws(CameraError) {
        do {
            try SystemCalls.mkdir(path, mode: mode)
            return
        } catch where error.code == EEXIST {
            if let status = try? SystemCalls.status(path), status.isDirectory { return }
            throw .trashFailed(path: file, reason: "\(path) exists and is not a directory", fix: "Move \(path) aside; the trash needs it as a folder.")
        } catch where error.code == ENOENT {
            // Missing parents (a new XDG_DATA_HOME): made too, as file managers do.
            try makeDirectory(FilePath.directory(of: path), mode: 0o700, for: file)
            try makeDirectory(path, mode: mode, for: file)
        } catch {
            throw .trashFailed(path: file, reason: "the trash folder \(path) cannot be made: " + CameraError.errnoText(error.code),
                               fix: "Make \(FilePath.directory(of: path)) writable for you.")
        }
    }

    /// Writes `info/NAME.trashinfo` for the first NAME (the file's own, then "stem.2.ext", "stem.3.ext"…) that is
    /// free in both folders; O_EXCL makes the claim atomic against another program trashing at the same moment.
    private func claimName(for file: String, files: String, info: String, contents: String) throws(CameraError) -> String {
        let base = FilePath.lastComponent(of: file)
        let (stem, fileExtension) = FilePath.splitExtension(base)
        for number in 1...10_000 {
            let name = number == 1 ? base : stem + ".\(number)" + (fileExtension.map { "." + $0 } ?? "")
            let infoPath = FilePath.join(info, name + ".trashinfo")
            let descriptor: FileDescriptor
            do {
                descriptor = try FileDescriptor.open(infoPath, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
            } catch where error.code == EEXIST {
                continue
            } catch {
                throw .trashFailed(path: file, reason: "\(infoPath) cannot be written: " + CameraError.errnoText(error.code),
                                   fix: "Make \(info) writable for you.")
            }
            if SystemCalls.nameExists(FilePath.join(files, name)) {
                // A trashed file without its info (left by another program): the name is not free.
                descriptor.close()
                try? SystemCalls.unlink(infoPath)
                continue
            }
            do {
                try descriptor.writeAll(Array(contents.utf8))
                try descriptor.sync()
            } catch {
                descriptor.close()
                try? SystemCalls.unlink(infoPath)
                throw .trashFailed(path: file, reason: "writing \(infoPath) failed: " + CameraError.errnoText(error.code),
                                   fix: "Free some space on that filesystem and try again.")
            }
            return name
        }
        throw .trashFailed(path: file, reason: "10000 files named like it are in the trash already", fix: "Empty the trash.")
    }
}
