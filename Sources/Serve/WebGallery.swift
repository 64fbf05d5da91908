import CameraErrors
import CSoup
import Foundation
import MediaFiles
import Reports

/// The gallery as the web server serves it: the photos of the photo folder and the videos of the video folder,
/// listed together newest first, each reachable, downloadable and deletable by its plain file name only — so no
/// request reaches anything outside those two folders (docs/serve.md, "Security").
struct WebGallery: Sendable {
    let photos: PhotoLibrary
    let videos: VideoLibrary

    /// What a gallery URL names: a photo or a video, by its folder and content type.
    enum Kind: String, Sendable {
        case photo, video

        /// The URL prefix: `/photos/NAME`, `/videos/NAME`.
        var prefix: String { "/\(rawValue)s/" }
    }

    /// The file `name` (percent-encoded as in the URL) of the `kind` folder, with its content type; nil for
    /// anything but a plain file name (letters, digits, `-_.`, no leading dot) with that kind's extension.
    func file(_ kind: Kind, named name: String) -> (path: String, name: String, type: String)? {
        let decoded = name.removingPercentEncoding ?? name
        guard ServeConfiguration.isPlainName(decoded) else { return nil }
        switch kind {
        case .photo:
            guard let format = PhotoFormat(path: decoded) else { return nil }
            return (photos.directory + "/" + decoded, decoded, format == .png ? "image/png" : "image/jpeg")
        case .video:
            guard let container = Self.container(of: decoded) else { return nil }
            return (videos.directory + "/" + decoded, decoded, container == .webm ? "video/webm" : "video/mp4")
        }
    }

    private static func container(of name: String) -> VideoContainer? {
        name.split(separator: ".").last.flatMap { VideoContainer(rawValue: $0.lowercased()) }
    }

    /// Photos and videos, newest first. `recording` (the file being written now) is left out.
    func entries(recording: Set<String> = []) throws -> [GalleryEntry] {
        var dated: [(Date, GalleryEntry)] = try photos.photos().map { photo in
            (photo.date, GalleryEntry(kind: Kind.photo.rawValue, name: photo.name, url: Kind.photo.prefix + photo.name,
                                      width: photo.size?.width, height: photo.size?.height, date: photo.dateText, bytes: photo.byteCount))
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: videos.directory)) ?? []
        for name in names where !name.hasPrefix(".") && Self.container(of: name) != nil {
            let path = videos.directory + "/" + name
            guard !recording.contains(path),
                  let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let date = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
            let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
            dated.append((date, GalleryEntry(kind: Kind.video.rawValue, name: name, url: Kind.video.prefix + name, width: nil, height: nil,
                                             date: Self.dateFormat.format(date), bytes: bytes)))
        }
        return dated.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1.name > $1.1.name }.map(\.1)
    }

    private static let dateFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .current)

    /// Answers GET: the file, mapped rather than read (a video may be large), with `?download` as an attachment.
    func serve(_ kind: Kind, named name: String, _ request: WebRequest) {
        guard let (path, decoded, type) = file(kind, named: name) else {
            return request.respond(404, json: WebHandler.errorJSON("no such \(kind.rawValue)"))
        }
        var error: UnsafeMutablePointer<GError>?
        guard let mapped = g_mapped_file_new(path, 0, &error) else {
            if let error { g_error_free(error) }
            return request.respond(404, json: WebHandler.errorJSON("no such \(kind.rawValue): \(decoded)"))
        }
        defer { g_mapped_file_unref(mapped) }
        if request.hasParameter("download") {
            request.setHeader("Content-Disposition", "attachment; filename=\"\(decoded)\"")
        }
        request.respond(200, type: type, bytes: g_mapped_file_get_bytes(mapped))
    }

    /// Answers DELETE: removes the file from its folder.
    func delete(_ kind: Kind, named name: String, _ request: WebRequest) {
        guard let (path, decoded, _) = file(kind, named: name), FileManager.default.fileExists(atPath: path) else {
            return request.respond(404, json: WebHandler.errorJSON("no such \(kind.rawValue)"))
        }
        do {
            try FileManager.default.removeItem(atPath: path)
            request.respond(200, json: JSONOutput.line(ActionAnswer(message: "Deleted \(decoded)")))
        } catch {
            request.respond(500, json: WebHandler.errorJSON("\(decoded) could not be deleted: \(error.localizedDescription)"))
        }
    }
}
