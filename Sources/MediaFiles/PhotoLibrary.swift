import FoundationEssentials
import Glibc
import CameraErrors
import LinuxSystem

/// The folder photos are saved to and listed from, and the names new photos get there.
///
/// The folder is, in order: an explicit directory; `$GSTCAM_PHOTO_DIR`; the user's XDG Pictures folder
/// (`$XDG_PICTURES_DIR`, the `XDG_PICTURES_DIR=` line of `$XDG_CONFIG_HOME/user-dirs.dirs`, or `~/Pictures`)
/// plus a `gstcam` subfolder. Names are `IMG_20261130_143205_123.jpg` (local time with milliseconds); a
/// name in use gets `_1`, `_2`… before the extension, so a photo never replaces another unless asked to.
public struct PhotoLibrary: Sendable {
    /// The environment variable that overrides the default folder (used as is, without a subfolder).
    public static let directoryVariable = "GSTCAM_PHOTO_DIR"
    /// The subfolder of the Pictures folder that gstcam saves into.
    public static let subfolder = "gstcam"

    /// The photo folder, absolute.
    public let directory: String
    /// Why `directory` is what it is.
    public let directorySource: PicturesDirectorySource
    public let environment: PhotoEnvironment

    /// The library in `directory` if given (relative paths are taken from the current directory), else the
    /// default folder described above.
    public init(directory: String? = nil, environment: PhotoEnvironment = .current) {
        self.environment = environment
        if let directory {
            self.directory = FilePath.absolute(directory)
            directorySource = .explicit
        } else if let variable = environment.value(Self.directoryVariable) {
            self.directory = FilePath.absolute(variable)
            directorySource = .photoDirectoryVariable
        } else {
            let pictures = PicturesDirectory.resolve(in: environment)
            self.directory = FilePath.join(pictures.path, Self.subfolder)
            directorySource = pictures.source
        }
    }

    /// Creates the folder and any missing parents (e.g. ~/Pictures/gstcam on first use).
    public func createDirectory() throws(CameraError) {
        var partial = ""
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            partial += "/" + component
            do {
                try SystemCalls.mkdir(partial)
            } catch let error where error.code == EEXIST {
                guard let status = try? SystemCalls.status(partial), status.isDirectory else {
                    throw .outputNotWritable(path: partial, reason: "it exists and is not a directory")
                }
            } catch {
                throw .outputNotWritable(path: partial, reason: "the directory could not be created: "
                    + CameraError.errnoText(error.code))
            }
        }
    }

    /// A free path for a photo taken now: `IMG_<local time>.jpg`, with `_1`, `_2`… added while the name is
    /// taken — unless `overwrite`, which returns the plain name even if a file has it.
    public func newPhotoPath(format: PhotoFormat, overwrite: Bool = false) -> String {
        newPhotoPath(format: format, takenAt: environment.now(), overwrite: overwrite)
    }

    /// The same for a photo taken at `date`.
    public func newPhotoPath(format: PhotoFormat, takenAt date: Date, overwrite: Bool = false) -> String {
        let stem = "IMG_" + LocalTime(in: environment, at: date).photoNameStamp
        return freePath(stem: stem, format: format, overwrite: overwrite)
    }

    /// Names for a burst or timelapse started now: `IMG_<start time>_0001.jpg`, `_0002`…
    public func newBurst(format: PhotoFormat, overwrite: Bool = false) -> PhotoBurstNames {
        newBurst(format: format, startedAt: environment.now(), overwrite: overwrite)
    }

    public func newBurst(format: PhotoFormat, startedAt date: Date, overwrite: Bool = false) -> PhotoBurstNames {
        PhotoBurstNames(library: self, stem: "IMG_" + LocalTime(in: environment, at: date).photoNameStamp,
                        format: format, overwrite: overwrite)
    }

    /// `directory/stem.ext`, or the first of `stem_1.ext`, `stem_2.ext`… whose name is free.
    func freePath(stem: String, format: PhotoFormat, overwrite: Bool) -> String {
        let plain = FilePath.join(directory, stem + "." + format.fileExtension)
        if overwrite { return plain }
        return Self.firstFreeName(plain)
    }

    /// `path` if nothing has that name, else the first free `stem_N.ext` beside it.
    static func firstFreeName(_ path: String) -> String {
        var candidate = path
        var suffix = 1
        while SystemCalls.nameExists(candidate) {
            candidate = withSuffix(path, suffix)
            suffix += 1
        }
        return candidate
    }

    /// "dir/IMG_1.jpg", 2 → "dir/IMG_1_2.jpg".
    static func withSuffix(_ path: String, _ suffix: Int) -> String {
        let directory = FilePath.directory(of: path)
        let (stem, fileExtension) = FilePath.splitExtension(FilePath.lastComponent(of: path))
        let name = stem + "_\(suffix)" + (fileExtension.map { "." + $0 } ?? "")
        return path.contains("/") ? FilePath.join(directory, name) : name
    }
}

/// The file names of one burst or timelapse: every shot shares the start time and carries a 1-based,
/// zero-padded shot number (`IMG_20261130_143205_123_0001.jpg`), so the files sort in shot order; past
/// 9999 the number simply grows a digit. A name in use gets `_1`, `_2`… like a single photo.
public struct PhotoBurstNames: Sendable {
    public let library: PhotoLibrary
    /// "IMG_20261130_143205_123".
    public let stem: String
    public let format: PhotoFormat
    public let overwrite: Bool

    /// The path for shot `number` (1 for the first).
    public func path(forShot number: Int) -> String {
        let digits = String(number)
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return library.freePath(stem: stem + "_" + padded, format: format, overwrite: overwrite)
    }
}
