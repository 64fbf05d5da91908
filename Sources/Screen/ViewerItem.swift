import FoundationEssentials
import MediaFiles

/// One thing the photo viewer shows: a gallery photo, or a recorded video (shown as its first frame, marked
/// "▶ Video" in the status line).
public struct ViewerItem: Sendable, Equatable {
    public let path: String
    public let name: String
    public let date: Date
    /// "2026-11-30 14:32:05", local time.
    public let displayDate: String
    /// Width × height as shown (turned by the EXIF orientation), when known without decoding (photos).
    public let size: PixelSize?
    public let isVideo: Bool
    /// EXIF Orientation (1: as stored); the decoder turns the picture upright with it.
    public let orientation: Int

    public init(_ photo: GalleryPhoto) {
        path = photo.path
        name = photo.name
        date = photo.date
        displayDate = photo.displayDate
        orientation = photo.orientation
        // 5…8 swap width and height.
        let turned = photo.orientation >= 5
        size = photo.size.map { turned ? PixelSize(width: $0.height, height: $0.width) : $0 }
        isVideo = false
    }

    public init(_ video: GalleryVideo) {
        path = video.path
        name = video.name
        date = video.date
        displayDate = video.displayDate
        size = nil
        isVideo = true
        orientation = 1
    }

    /// Photos and videos together, newest first (equal dates: by name, last first), as the gallery orders photos.
    public static func merged(photos: [GalleryPhoto], videos: [GalleryVideo]) -> [ViewerItem] {
        (photos.map(ViewerItem.init) + videos.map(ViewerItem.init)).sorted { first, second in
            first.date != second.date ? first.date > second.date : first.name > second.name
        }
    }
}
