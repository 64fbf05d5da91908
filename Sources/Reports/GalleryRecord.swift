import MediaFiles

/// `gstcam gallery --json`: the folder, where its name came from, and the photos newest first (docs/gallery.md).
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

    public var directory: String
    public var directorySource: String
    public var photos: [Entry]

    public init(_ library: PhotoLibrary, _ photos: [GalleryPhoto]) {
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
