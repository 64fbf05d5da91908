import FoundationEssentials
import Glibc
import CameraErrors
import LinuxSystem

/// A recorded video, as the photo viewer lists it beside the gallery's photos: MP4 and WebM files, dated by their
/// modification time (when the recording ended).
public struct GalleryVideo: Sendable, Equatable {
    /// Absolute path.
    public let path: String
    public let container: VideoContainer
    public let byteCount: Int
    public let date: Date
    /// Local time's offset from UTC at `date`, in seconds.
    public let utcOffset: Int

    /// The file name, e.g. "VID_20261130_143205_123.mp4".
    public var name: String { FilePath.lastComponent(of: path) }

    /// `date` as local wall-clock time: "2026-11-30 14:32:05".
    public var displayDate: String { LocalTime(date, utcOffset: utcOffset).display }

    /// The video at `path`; nil when it is not a regular file named .mp4 or .webm.
    public init?(path: String, environment: PhotoEnvironment = .current) {
        let absolute = FilePath.absolute(path)
        guard let fileExtension = FilePath.splitExtension(FilePath.lastComponent(of: absolute)).extension,
              let container = VideoContainer(rawValue: fileExtension.lowercased()),
              let status = try? SystemCalls.status(absolute), status.isRegularFile else { return nil }
        self.path = absolute
        self.container = container
        byteCount = Int(status.st_size)
        date = Date(timeIntervalSince1970: status.modificationSeconds)
        utcOffset = environment.utcOffset(date)
    }
}

extension VideoLibrary {
    /// The videos in `directory` (MP4 and WebM, not hidden files), newest first; none when the folder does not
    /// exist or cannot be listed (the viewer then shows the photos alone).
    public func videos() -> [GalleryVideo] {
        guard let names = try? SystemCalls.directoryEntries(directory) else { return [] }
        return names.filter { !$0.hasPrefix(".") }
            .compactMap { GalleryVideo(path: FilePath.join(directory, $0), environment: environment) }
            .sorted { $0.date != $1.date ? $0.date > $1.date : $0.name > $1.name }
    }
}
