import MediaFiles

/// `gstcam gallery --json`: the folder, where its name came from, and the photos newest first (docs/gallery.md).
public struct GalleryRecord: Encodable, Equatable {
    public struct Entry: Encodable, Equatable {
        public var path: String
        public var name: String
        public var format: String
        public var bytes: Int
        public var width: Int?
        public var height: Int?
        public var date: String
        /// "exif" (when the photo was taken) or "modified" (the file's time, for photos without an EXIF date).
        public var dateSource: String
        public var camera: String?
        /// Whether the file is a whole image (its end marker is there).
        public var complete: Bool

        /// Absent values are written as null, so every entry has every key.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(name, forKey: .name)
            try container.encode(format, forKey: .format)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(width, forKey: .width)
            try container.encode(height, forKey: .height)
            try container.encode(date, forKey: .date)
            try container.encode(dateSource, forKey: .dateSource)
            try container.encode(camera, forKey: .camera)
            try container.encode(complete, forKey: .complete)
        }

        enum CodingKeys: String, CodingKey {
            case path, name, format, bytes, width, height, date, dateSource, camera, complete
        }
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
