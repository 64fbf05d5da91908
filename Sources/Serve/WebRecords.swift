import Screen

/// What the web API answers, as JSON (docs/serve.md): `GET /api/status`.
struct StatusAnswer: Encodable {
    var camera: String
    var device: String?
    /// idle, starting, running, stopped or failed.
    var state: String
    /// Why the camera failed, for people (the page's error banner); absent while it works.
    var error: String?
    var width: Int
    var height: Int
    var fps: Double
    var zoom: Double
    var torch: Bool?
    var focus: String?
    var frames: Int
    /// Live-view (Motion-JPEG) viewers now.
    var viewers: Int
    var rtsp: String?
}

/// `POST /api/photo`, `POST /api/zoom`: what the action did.
struct ActionAnswer: Encodable {
    var ok: Bool
    var message: String
    var photo: PhotoLink?

    init(_ outcome: CameraActionOutcome) {
        ok = !outcome.isError
        message = outcome.message
        photo = outcome.photo.map { photo in
            let name = photo.path.split(separator: "/").last.map(String.init) ?? photo.path
            return PhotoLink(name: name, url: "/photos/" + name, width: photo.width, height: photo.height)
        }
    }
}

/// A saved photo as the page reaches it.
struct PhotoLink: Encodable {
    var name: String
    var url: String
    var width: Int
    var height: Int
}

/// Any refusal or failure.
struct ErrorAnswer: Encodable {
    var ok = false
    var error: String
}

/// `GET /api/gallery`: one photo of the gallery, newest first.
struct GalleryEntry: Encodable {
    var name: String
    var url: String
    var width: Int?
    var height: Int?
    /// When it was taken (EXIF, else the file's time), ISO 8601 with the local offset.
    var date: String
    var bytes: Int
}
