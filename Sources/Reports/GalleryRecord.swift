import MediaFiles

/// `gstcam gallery --json`: the folders, where their names came from, and the photos and videos newest first
/// (docs/gallery.md).
public struct GalleryRecord: Encodable, Equatable {
    public struct Entry: Encodable, Equatable {
        public var path: String
        public var name: String
        public var format: String
        public var bytes: Int
        @NullWhenAbsent public var width: Int?
        @NullWhenAbsent public var height: Int?
        public var date: String
        /// "exif" (when the photo was taken) or "modified" (the file's time, for photos without an EXIF date).
        public var dateSource: String
        @NullWhenAbsent public var camera: String?
        /// Whether the file is a whole image (its end marker is there).
        public var complete: Bool
    }

    /// A video: its length in seconds (`null` when not one frame can be measured) and whether it was finished.
    public struct VideoEntry: Encodable, Equatable {
        public var path: String
        public var name: String
        public var format: String
        public var bytes: Int
        @NullWhenAbsent public var width: Int?
        @NullWhenAbsent public var height: Int?
        @NullWhenAbsent public var seconds: Double?
        /// The file's modification time.
        public var date: String
        public var complete: Bool

        public init(_ video: GalleryVideo) {
            path = video.path
            name = video.name
            format = video.format
            bytes = video.byteCount
            width = video.size?.width
            height = video.size?.height
            seconds = video.duration.map { ($0 * 1000).rounded() / 1000 }
            date = video.dateText
            complete = video.isComplete
        }
    }

    public var directory: String
    public var directorySource: String
    public var photos: [Entry]
    /// Absent (not encoded) in the photo-only form that `--last` and older callers use.
    public var videoDirectory: String?
    public var videoDirectorySource: String?
    public var videos: [VideoEntry]?

    public init(_ library: PhotoLibrary, _ photos: [GalleryPhoto], videos: (VideoLibrary, [GalleryVideo])? = nil) {
        if let (videoLibrary, list) = videos {
            videoDirectory = videoLibrary.directory
            videoDirectorySource = videoLibrary.directoryKey
            self.videos = list.map(VideoEntry.init)
        }
        directory = library.directory
        directorySource = library.directorySource.key
        self.photos = photos.map { photo in
            Entry(path: photo.path, name: photo.name, format: photo.format.rawValue, bytes: photo.byteCount,
                  width: photo.size?.width, height: photo.size?.height, date: photo.dateText,
                  dateSource: photo.dateSource == .exif ? "exif" : "modified", camera: photo.camera,
                  complete: photo.isComplete)
        }
    }
}
