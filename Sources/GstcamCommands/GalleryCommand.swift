import GstCamera
import LinuxSystem
import Reports
import Screen

/// `gstcam gallery`: the photos and videos gstcam saved, newest first — or just the newest photo's path, which
/// is what a camera UI shows as its last-photo thumbnail.
struct GalleryCommand: Command {
    static let name = "gallery"
    static let summary = "List saved photos and videos, newest first"
    static let usage = """
    USAGE: gstcam gallery [--dir DIR] [--json] [--last]

    Lists the JPEG and PNG photos in the gallery folder, newest first (by the EXIF date the photo was
    taken, else by file modification time), with file size, dimensions, date and camera; then the videos
    (MP4, WebM, MKV) in the video folder, newest first, with their length, file size and dimensions.

    The gallery folder is DIR if given, else $\(PhotoLibrary.directoryVariable), else the XDG Pictures folder
    ($XDG_PICTURES_DIR, or XDG_PICTURES_DIR in ~/.config/user-dirs.dirs, or ~/Pictures) plus /gstcam. The
    video folder is DIR if given, else $\(VideoLibrary.directoryVariable), else the XDG Videos folder plus /gstcam.

    OPTIONS:
      --dir DIR   List DIR instead of the gallery folder.
      --json      Print JSON (see docs/gallery.md) instead of a table.
      --last      Print only the newest photo's path (with --json, only its object). Exits 1 when the
                  gallery has no photos.
      -h, --help  Show this help.
    """

    static func run(_ arguments: inout Arguments) async throws {
        let directory = try arguments.option("--dir")
        let json = arguments.flag("--json")
        let lastOnly = arguments.flag("--last")
        try arguments.finish()
        if directory?.isEmpty == true { throw UsageError("--dir needs a directory") }

        let library = PhotoLibrary(directory: directory)
        let photos = try library.photos()
        let videoLibrary = VideoLibrary(directory: directory)
        if lastOnly {
            guard let newest = photos.first else {
                Standard.error.write("gstcam: no photos in \(library.directory) (\(library.directorySource.explanation)). "
                    + "Take one with `gstcam capture`, or choose another folder with --dir.\n")
                throw ExitRequest(status: .failure)
            }
            print(json ? JSONOutput.line(GalleryRecord(library, [newest]).photos[0]) : newest.path)
        } else if json {
            print(JSONOutput.document(GalleryRecord(library, photos, videos: (videoLibrary, try videoLibrary.videos()))))
        } else {
            print(table(library, photos) + "\n\n" + videoTable(videoLibrary, try videoLibrary.videos()))
        }
    }

    static func table(_ library: PhotoLibrary, _ photos: [GalleryPhoto]) -> String {
        let heading = "\(library.directory) (\(library.directorySource.explanation))"
        guard !photos.isEmpty else { return "No photos in \(heading) yet." }
        let rows = [["DATE", "SIZE", "PIXELS", "CAMERA", "FILE"]] + photos.map { photo in
            [photo.displayDate + (photo.dateSource == .exif ? "" : "*"),
             byteText(photo.byteCount),
             photo.size?.description ?? "?",
             photo.camera ?? "-",
             photo.name + (photo.isComplete ? "" : "  (incomplete)")]
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max()! }
        let lines = rows.map { row in
            (0..<4).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count) }.joined(separator: "  ")
                + "  " + row[4]
        }
        let count = photos.count == 1 ? "1 photo" : "\(photos.count) photos"
        var text = "\(count) in \(heading), newest first:\n" + lines.joined(separator: "\n")
        if photos.contains(where: { $0.dateSource != .exif }) {
            text += "\n* date of the file, not of the photo (no EXIF date)"
        }
        return text
    }

    static func videoTable(_ library: VideoLibrary, _ videos: [GalleryVideo]) -> String {
        let heading = "\(library.directory) (\(library.directoryExplanation))"
        guard !videos.isEmpty else { return "No videos in \(heading) yet." }
        let rows = [["DATE", "LENGTH", "SIZE", "PIXELS", "FILE"]] + videos.map { video in
            [video.displayDate,
             video.duration.map { lengthText($0) } ?? "?",
             byteText(video.byteCount),
             video.size?.description ?? "?",
             video.name + (video.isComplete ? "" : "  (not finished: plays up to its last fragment)")]
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max()! }
        let lines = rows.map { row in
            (0..<4).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count) }.joined(separator: "  ")
                + "  " + row[4]
        }
        let count = videos.count == 1 ? "1 video" : "\(videos.count) videos"
        return "\(count) in \(heading), newest first:\n" + lines.joined(separator: "\n")
    }

    /// 75.4 → "1:15.4"; seconds under a minute as "9.9 s".
    static func lengthText(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        let minutes = tenths / 600
        let rest = tenths % 600
        let secondsText = "\(rest / 10).\(rest % 10)"
        if minutes == 0 { return secondsText + " s" }
        return "\(minutes):" + (rest < 100 ? "0" : "") + secondsText
    }

    /// 1536 → "1.5 KiB"; sizes people can compare at a glance.
    static func byteText(_ count: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 { value /= 1024; unit += 1 }
        if unit == 0 { return "\(count) B" }
        return value.decimalText(digits: 1) + " " + units[unit]
    }
}
