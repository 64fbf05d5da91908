import Screen

/// What the web API answers, as JSON (docs/serve.md): `GET /api/status`.
struct StatusAnswer: Encodable {
    /// The served camera's name (its RTSP path, `?camera=NAME`).
    var name: String
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
    /// The recording in progress.
    var recording: RecordingAnswer?
}

/// A recording in progress, in `/api/status`.
struct RecordingAnswer: Encodable {
    var name: String
    var seconds: Double
}

/// `GET /api/cameras`: one served camera.
struct CameraAnswer: Encodable {
    var name: String
    var camera: String
    var device: String?
    var state: String
    var rtsp: String?
}

/// `POST /api/photo`, `POST /api/zoom`: what the action did.
struct ActionAnswer: Encodable {
    var ok: Bool
    var message: String
    var photo: PhotoLink?
    /// The video a recording that stopped saved (`POST /api/record?on=0`).
    var video: VideoLink?
    /// The file a recording that started writes (`POST /api/record?on=1`).
    var recording: String?

    init(_ outcome: CameraActionOutcome) {
        ok = !outcome.isError
        message = outcome.message
        photo = outcome.photo.map { photo in
            let name = photo.path.split(separator: "/").last.map(String.init) ?? photo.path
            return PhotoLink(name: name, url: "/photos/" + name, width: photo.width, height: photo.height)
        }
        video = outcome.video.map { video in
            let name = video.path.split(separator: "/").last.map(String.init) ?? video.path
            return VideoLink(name: name, url: "/videos/" + name, seconds: (video.duration.inSeconds * 10).rounded() / 10)
        }
        recording = outcome.recordingPath.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
    }

    init(message: String) {
        ok = true
        self.message = message
    }
}

/// A saved video as the page reaches it.
struct VideoLink: Encodable {
    var name: String
    var url: String
    var seconds: Double
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

/// `GET /api/gallery`: one photo or video of the gallery, newest first.
struct GalleryEntry: Encodable {
    /// photo or video.
    var kind: String
    var name: String
    var url: String
    var width: Int?
    var height: Int?
    /// When it was taken (EXIF, else the file's time; a video: when it was last written), ISO 8601 with the local offset.
    var date: String
    var bytes: Int
}
