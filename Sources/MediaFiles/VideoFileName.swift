import CameraErrors
import LinuxSystem

/// What the name given for a recording (`-o NAME`, a camera screen's `record_start` path) says before any
/// camera work: the container its extension asks for, and whether it can name a video file at all. Players
/// trust extensions, so a name never silently gets another container's extension, and one that leads to a
/// folder or a device never gets an extension added beside it (`-o /dev/video0` made `/dev/video0.mp4`).
public enum VideoFileName {
    /// The container `path`'s extension names (.mp4, .webm, .mkv; any case), or nil for a name without an
    /// extension (the recording's own is added). Any other extension is a `VideoNameProblem`.
    public static func container(of path: String) throws(VideoNameProblem) -> VideoContainer? {
        let (stem, given) = FilePath.splitExtension(FilePath.lastComponent(of: path))
        guard let given else { return nil }
        guard let container = VideoContainer(fileExtension: given) else {
            throw VideoNameProblem(".\(given) is not a video format gstcam records; name it \(stem).mp4 (H.264), "
                + "\(stem).webm (VP8 or VP9) or \(stem).mkv (the camera's Motion-JPEG)")
        }
        return container
    }

    /// Throws `outputNotWritable` when `path` ends in "/" or leads to a directory, a device, a pipe or a socket:
    /// a video is a file that is written, then indexed, in place.
    public static func checkNamesAFile(_ path: String) throws(CameraError) {
        let status = try? SystemCalls.status(path)
        if path.hasSuffix("/") || status?.isDirectory == true {
            throw .outputNotWritable(path: path, reason: "it is a directory (--dir \(path) records into it under a new name)")
        }
        if let status, !status.isRegularFile {
            throw .outputNotWritable(path: path, reason: "it is \(status.fileKind), and a video is written to a file; "
                + "choose a file name such as clip.mp4")
        }
    }
}

/// Why a name cannot be a recording's: `reason` is a sentence for people, without the name.
public struct VideoNameProblem: Error, Sendable, Equatable {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
}
