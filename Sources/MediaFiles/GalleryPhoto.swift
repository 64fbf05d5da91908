import FoundationEssentials
import Glibc
import CameraErrors
import LinuxSystem

/// One photo in the gallery, as `gstcam gallery` lists it.
public struct GalleryPhoto: Sendable, Equatable {
    /// Where the photo's date comes from.
    public enum DateSource: String, Sendable, Codable {
        /// EXIF DateTimeOriginal: when the picture was taken.
        case exif
        /// The file's modification time (PNGs, JPEGs without EXIF).
        case modificationTime
    }

    /// Absolute path.
    public let path: String
    /// What the file's content is (by its signature; by its extension when the content is unrecognised).
    public let format: PhotoFormat
    /// File size in bytes.
    public let byteCount: Int
    /// Width × height, or nil when the header cannot be read (a damaged file).
    public let size: PixelSize?
    public let date: Date
    public let dateSource: DateSource
    /// Local time's offset from UTC at `date`, in seconds (for showing the date as the photographer saw it).
    public let utcOffset: Int
    /// EXIF make and model ("Canon EOS R6"), or nil when the photo does not say.
    public let camera: String?
    /// Whether the image ends properly (JPEG end-of-image marker, PNG IEND chunk).
    public let isComplete: Bool
    /// EXIF Orientation, 1 (as stored) to 8; 1 when the photo does not say. `size` is the stored pixels'.
    public let orientation: Int

    /// The file name, e.g. "IMG_20261130_143205_123.jpg".
    public var name: String { FilePath.lastComponent(of: path) }

    /// `date` in RFC 3339 with milliseconds and the local offset: "2026-11-30T14:32:05.123+01:00".
    public var dateText: String { LocalTime(date, utcOffset: utcOffset).iso8601 }

    /// `date` as local wall-clock time for tables: "2026-11-30 14:32:05".
    public var displayDate: String { LocalTime(date, utcOffset: utcOffset).display }

    /// Reads what the gallery shows about the photo at `path` (its header, EXIF block and trailer, not the
    /// whole image). Nil when it is not a readable regular file or neither its content nor its extension
    /// says JPEG or PNG.
    public init?(path: String, environment: PhotoEnvironment = .current) {
        let absolute = FilePath.absolute(path)
        guard let status = try? SystemCalls.status(absolute), status.isRegularFile else { return nil }
        let summary = try? FileBytes.withFile(absolute) { bytes -> (PhotoFormat?, PixelSize?, Bool, EXIFSummary?) in
            if let header = JPEGReader.header(of: bytes) {
                return (.jpeg, header.size, JPEGReader.isComplete(bytes), header.exif)
            }
            if PNGReader.hasSignature(bytes) {
                return (.png, PNGReader.size(of: bytes), PNGReader.isComplete(bytes),
                        PNGEXIFChunk.tiff(in: bytes).flatMap(EXIFReader.summary(ofTIFF:)))
            }
            return (nil, nil, false, nil)
        }
        guard let summary, let format = summary.0 ?? PhotoFormat(path: absolute) else { return nil }
        self.path = absolute
        self.format = format
        byteCount = Int(status.st_size)
        size = summary.1
        isComplete = summary.2
        camera = summary.3?.camera
        orientation = summary.3?.orientation ?? 1
        if let taken = summary.3?.dateTaken(utcOffset: environment.utcOffset) {
            date = taken
            dateSource = .exif
        } else {
            date = Date(timeIntervalSince1970: status.modificationSeconds)
            dateSource = .modificationTime
        }
        // A photo that recorded its UTC offset is shown in the photographer's local time.
        utcOffset = summary.3?.offsetTimeOriginal.flatMap(EXIFSummary.parseOffset) ?? environment.utcOffset(date)
    }
}

extension PhotoLibrary {
    /// The names of the symbolic links `updateLatestLink` keeps, one per format.
    public static let latestLinkNames: [PhotoFormat: String] = [.jpeg: "latest.jpg", .png: "latest.png"]

    /// The photos in `directory` — JPEG and PNG files, not hidden files, not unfinished temporary files, not
    /// the `latest` links — newest first: by EXIF DateTimeOriginal when the photo has it, else by the
    /// file's modification time; equal dates by name, last first. A directory that does not exist yet
    /// is an empty gallery.
    public func photos() throws(CameraError) -> [GalleryPhoto] {
        let latestNames = Set(Self.latestLinkNames.values)
        let photos = try GalleryFolder.visibleNames(in: directory).compactMap { name -> GalleryPhoto? in
            guard PhotoFormat(path: name) != nil else { return nil }
            let path = FilePath.join(directory, name)
            if latestNames.contains(name), (try? SystemCalls.linkStatus(path))?.isSymbolicLink == true { return nil }
            return GalleryPhoto(path: path, environment: environment)
        }
        return photos.sorted { first, second in
            first.date != second.date ? first.date > second.date : first.name > second.name
        }
    }

    /// The newest photo, or nil for an empty gallery.
    public func newestPhoto() throws(CameraError) -> GalleryPhoto? {
        try photos().first
    }

    /// Points `latest.jpg` (or `latest.png`, by the photo's format) beside `photoPath` at it, atomically: a
    /// new symbolic link under a temporary name is renamed over the old one, so readers always find either
    /// the previous or the new photo. The link is relative (just the file name), so the folder can be moved.
    /// The other format's `latest` link is removed, so only the newest photo has one. Returns the link's
    /// path. Throws `outputExists` if a regular file (not a link) already has the link's name.
    @discardableResult
    public static func updateLatestLink(to photoPath: String) throws(CameraError) -> String {
        let format = PhotoFormat(path: photoPath) ?? .jpeg
        let directory = FilePath.directory(of: photoPath)
        let linkName = latestLinkNames[format]!
        let linkPath = FilePath.join(directory, linkName)
        if let existing = try? SystemCalls.linkStatus(linkPath), !existing.isSymbolicLink {
            throw .outputExists(path: linkPath)
        }
        let temporary = FilePath.join(directory, ".\(linkName)\(AtomicPhotoWriter.temporaryMarker)\(getpid())-\(AtomicPhotoWriter.nextTemporaryNumber())")
        do {
            try SystemCalls.symlink(FilePath.lastComponent(of: photoPath), temporary)
        } catch {
            throw .writeFailed(path: linkPath, errno: error.code)
        }
        do {
            try SystemCalls.rename(temporary, linkPath)
        } catch {
            try? SystemCalls.unlink(temporary)
            throw .writeFailed(path: linkPath, errno: error.code)
        }
        for (otherFormat, otherName) in latestLinkNames where otherFormat != format {
            let otherPath = FilePath.join(directory, otherName)
            if (try? SystemCalls.linkStatus(otherPath))?.isSymbolicLink == true { try? SystemCalls.unlink(otherPath) }
        }
        if let directoryFile = try? FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY) {
            try? directoryFile.sync()
        }
        return linkPath
    }
}
