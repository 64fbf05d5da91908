import FoundationEssentials
import CameraErrors
import LinuxSystem

/// The folder videos are recorded into by default, and the names new videos get there: the XDG Videos folder
/// (`$XDG_VIDEOS_DIR`, the `XDG_VIDEOS_DIR=` line of user-dirs.dirs, or `~/Videos`) plus `gstcam`, unless a
/// folder is given or `$GSTCAM_VIDEO_DIR` is set. Names are `VID_20261130_143205_123.mp4` (local time); a name
/// in use gets `_1`, `_2`… so a recording never replaces another file.
public struct VideoLibrary: Sendable {
    public static let directoryVariable = "GSTCAM_VIDEO_DIR"
    public static let userDirectoryVariable = "XDG_VIDEOS_DIR"

    public let directory: String
    /// Why `directory` is what it is, for `gstcam gallery`: a word for scripts and a phrase for people.
    public let directoryKey: String
    public let directoryExplanation: String
    public let environment: PhotoEnvironment

    public init(directory: String? = nil, environment: PhotoEnvironment = .current) {
        self.environment = environment
        if let directory {
            self.directory = FilePath.absolute(directory)
            (directoryKey, directoryExplanation) = ("explicit", "given with --dir")
        } else if let variable = environment.value(Self.directoryVariable) {
            self.directory = FilePath.absolute(variable)
            (directoryKey, directoryExplanation) = (Self.directoryVariable, "from $\(Self.directoryVariable)")
        } else {
            let videos = PicturesDirectory.resolve(in: environment, variable: Self.userDirectoryVariable, fallback: "Videos")
            self.directory = FilePath.join(videos.path, PhotoLibrary.subfolder)
            let variable = Self.userDirectoryVariable
            (directoryKey, directoryExplanation) = switch videos.source {
            case .userDirectoriesFile(let file): ("user-dirs.dirs", "from \(variable) in \(file)")
            case .homePictures: ("default", "the default: no \(variable) is set")
            default: (variable, "from $\(variable)")
            }
        }
    }

    /// Creates the folder and any missing parents (e.g. ~/Videos/gstcam on first use).
    public func createDirectory() throws(CameraError) {
        try PhotoLibrary(directory: directory, environment: environment).createDirectory()
    }

    /// A free path for a video started now in `container`. With `segmented`, the first segment's name
    /// (`VID_…_00001.mp4`) is the one that must be free.
    public func newVideoPath(container: VideoContainer, segmented: Bool = false) -> String {
        let stem = FilePath.join(directory, "VID_" + LocalTime(in: environment, at: environment.now()).photoNameStamp)
        var candidate = stem
        var suffix = 1
        func taken(_ stem: String) -> Bool {
            let path = stem + "." + container.fileExtension
            return SystemCalls.nameExists(segmented ? VideoSegmentNames.name(VideoSegmentNames.pattern(for: path), 1) : path)
        }
        while taken(candidate) {
            candidate = stem + "_\(suffix)"
            suffix += 1
        }
        return candidate + "." + container.fileExtension
    }
}
