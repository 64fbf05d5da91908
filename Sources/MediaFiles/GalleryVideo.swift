import FoundationEssentials
import Glibc
import CameraErrors
import LinuxSystem

/// One video in the gallery, as `gstcam gallery` lists it: read from the file's own header and fragments
/// (MP4, WebM, Matroska), not from a record gstcam kept, so files from other programs are listed the same way.
public struct GalleryVideo: Sendable, Equatable {
    /// Absolute path.
    public let path: String
    /// "mp4", "webm" or "mkv": from the content (the extension when the content is not recognised).
    public let format: String
    public let byteCount: Int
    /// The video track's width × height; nil when the file has no readable header.
    public let size: PixelSize?
    /// Seconds of video; nil when no frame can be measured (a file cut off before its first fragment).
    public let duration: Double?
    /// The file's modification time: when the recording ended (or last wrote).
    public let date: Date
    public let utcOffset: Int
    /// Finished normally (MP4 index, WebM duration). An incomplete file still plays up to its last fragment.
    public let isComplete: Bool

    public static let fileExtensions: Set<String> = ["mp4", "webm", "mkv"]

    public var name: String { FilePath.lastComponent(of: path) }
    public var dateText: String { LocalTime(date, utcOffset: utcOffset).iso8601 }
    public var displayDate: String { LocalTime(date, utcOffset: utcOffset).display }

    /// Nil when `path` is not a readable regular file with a video extension.
    public init?(path: String, environment: PhotoEnvironment = .current) {
        let absolute = FilePath.absolute(path)
        guard let extensionName = FilePath.splitExtension(FilePath.lastComponent(of: absolute)).1?.lowercased(),
              Self.fileExtensions.contains(extensionName),
              let status = try? SystemCalls.status(absolute), status.isRegularFile else { return nil }
        let read = try? FileBytes.withFile(absolute) { bytes -> (String, MP4Reader.Summary)? in
            if let summary = MP4Reader.summary(of: bytes) { return ("mp4", summary) }
            if let summary = MatroskaReader.summary(of: bytes) { return (extensionName == "mkv" ? "mkv" : "webm", summary) }
            return nil
        }
        self.path = absolute
        format = read?.0 ?? extensionName
        byteCount = Int(status.st_size)
        size = read?.1.size
        duration = read?.1.duration
        isComplete = read?.1.isComplete ?? false
        date = Date(timeIntervalSince1970: status.modificationSeconds)
        utcOffset = environment.utcOffset(date)
    }
}

extension VideoLibrary {
    /// The videos in `directory` (MP4, WebM and Matroska files, not hidden ones), newest first by modification
    /// time, equal times by name, last first. A folder that does not exist yet holds no videos.
    public func videos() throws(CameraError) -> [GalleryVideo] {
        let videos = try GalleryFolder.visibleNames(in: directory).compactMap {
            GalleryVideo(path: FilePath.join(directory, $0), environment: environment)
        }
        return videos.sorted { first, second in
            first.date != second.date ? first.date > second.date : first.name > second.name
        }
    }
}
