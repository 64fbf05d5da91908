import Glibc
import Controls
import MediaFiles
import Session
import V4L2

/// The line-based JSON protocol of a running camera screen (docs/camera-screen.md): one JSON object per line
/// in, one JSON object per line back, in order. Every reply has "ok"; a failed request has "error" instead of
/// its results. Unknown fields are ignored; a line that is not a known request gets an error reply.
enum RemoteRequest: Equatable {
    case status
    /// `record_status`: the recording in progress, if any.
    case recordingStatus
    case action(CameraAction)

    /// The request a line asks for, or the error text to reply with.
    static func parse(_ line: String) -> Result<RemoteRequest, RemoteProtocolError> {
        guard let object = JSONValue.object(parsing: line) else {
            return .failure(RemoteProtocolError("not a JSON object: send one object per line, e.g. {\"command\":\"status\"}"))
        }
        guard let command = object["command"]?.string else {
            return .failure(RemoteProtocolError("no \"command\": expected one of \(commands.joined(separator: ", "))"))
        }
        func number(_ key: String) -> Double? { object[key]?.double }
        /// A field of the wrong type is refused, never ignored: `"path":12` must not send the photo elsewhere.
        func field<T>(_ key: String, _ type: T.Type, _ expected: String) -> Result<T?, RemoteProtocolError> {
            guard let value = object[key], value != .null else { return .success(nil) }
            let typed: Any?
            if T.self == Bool.self { typed = value.bool } else if T.self == Double.self { typed = value.double } else { typed = value.string }
            guard let typed = typed as? T else { return .failure(RemoteProtocolError("\"\(key)\" must be \(expected)")) }
            return .success(typed)
        }
        switch command {
        case "status":
            return .success(.status)
        case "capture":
            let overwrite: Bool?, path: String?, directory: String?
            switch (field("overwrite", Bool.self, "true or false"), field("path", String.self, "a string: an absolute file path"),
                    field("directory", String.self, "a string: an absolute folder path")) {
            case let (.failure(error), _, _), let (_, .failure(error), _), let (_, _, .failure(error)): return .failure(error)
            case let (.success(o), .success(p), .success(d)): (overwrite, path, directory) = (o, p, d)
            }
            if path != nil, directory != nil { return .failure(RemoteProtocolError("give \"path\" or \"directory\", not both")) }
            let format: PhotoFormat?, flash: FlashMode?
            switch (field("format", String.self, "\"jpeg\" or \"png\""), field("flash", String.self, "\"off\", \"on\" or \"auto\"")) {
            case let (.failure(error), _), let (_, .failure(error)): return .failure(error)
            case let (.success(formatName), .success(flashName)):
                format = formatName.flatMap { PhotoFormat(rawValue: $0.lowercased() == "jpg" ? "jpeg" : $0.lowercased()) }
                if let formatName, format == nil { return .failure(RemoteProtocolError("unknown \"format\" \"\(formatName)\": jpeg or png")) }
                flash = flashName.flatMap { FlashMode(rawValue: $0.lowercased()) }
                if let flashName, flash == nil { return .failure(RemoteProtocolError("unknown \"flash\" \"\(flashName)\": off, on or auto")) }
            }
            if let path {
                guard path.hasPrefix("/") else { return .failure(RemoteProtocolError("\"path\" must be absolute: \(path)")) }
                if let problem = PhotoFormat.problem(writing: format, to: path) { return .failure(RemoteProtocolError(problem)) }
                return .success(.action(.capture(.file(path: path, overwrite: overwrite ?? false), format: format, flash: flash)))
            }
            if let directory {
                guard directory.hasPrefix("/") else { return .failure(RemoteProtocolError("\"directory\" must be absolute: \(directory)")) }
                if let problem = problemWithDirectory(directory) { return .failure(problem) }
                return .success(.action(.capture(.folder(directory), format: format, flash: flash)))
            }
            return .success(.action(.capture(format: format, flash: flash)))
        case "zoom":
            switch field("factor", Double.self, "a number: the zoom factor, 1 (no zoom) or more") {
            case .failure: return .failure(RemoteProtocolError(zoomNeeds))
            case let .success(factor?):
                // As `--zoom`: 1 is no zoom; below it (0, negative) there is nothing to show.
                guard factor.isFinite, factor >= 1 else {
                    return .failure(RemoteProtocolError("zoom \"factor\" must be 1 (no zoom) or more, like --zoom; got \(factor)"))
                }
                return .success(.action(.zoom(factor: factor)))
            case .success(nil): break
            }
            switch object["step"]?.string {
            case "in": return .success(.action(.zoomIn))
            case "out": return .success(.action(.zoomOut))
            case "reset": return .success(.action(.resetZoom))
            default: return .failure(RemoteProtocolError(zoomNeeds))
            }
        case "torch":
            switch field("on", Bool.self, "true or false (or left out to toggle)") {
            case let .failure(error): return .failure(error)
            case let .success(on?): return .success(.action(.torch(on: on)))
            case .success(nil): return .success(.action(.toggleTorch))
            }
        case "viewer":
            switch field("open", Bool.self, "true or false (left out: true)") {
            case let .failure(error): return .failure(error)
            case .success(false?): return .success(.action(.closeViewer))
            case .success: return .success(.action(.openViewer))
            }
        case "focus":
            if let x = number("x"), let y = number("y"), (0...1).contains(x), (0...1).contains(y) {
                return .success(.action(.focus(at: NormalizedPoint(x: x, y: y))))
            }
            if object["x"] != nil || object["y"] != nil {
                return .failure(RemoteProtocolError("focus at a point needs \"x\" and \"y\" from 0 to 1"))
            }
            switch object["mode"]?.string {
            case nil, "once": return .success(.action(.focusOnce))
            case "toggle-continuous": return .success(.action(.toggleContinuousFocus))
            case let other?: return .failure(RemoteProtocolError("unknown focus mode \"\(other)\": once or toggle-continuous"))
            }
        case "switch":
            return .success(.action(.nextCamera))
        case "record_start":
            var options = RemoteRecordingOptions()
            switch (field("codec", String.self, "\"h264\", \"vp8\", \"vp9\" or \"mjpeg\""), field("bitrate", Double.self, "a number: kbit/s"),
                    field("duration", Double.self, "a number: seconds"), field("overwrite", Bool.self, "true or false")) {
            case let (.failure(error), _, _, _), let (_, .failure(error), _, _), let (_, _, .failure(error), _), let (_, _, _, .failure(error)):
                return .failure(error)
            case let (.success(codec), .success(bitrate), .success(duration), .success(overwrite)):
                if let codec {
                    guard let known = VideoCodec(rawValue: codec.lowercased()) else {
                        return .failure(RemoteProtocolError("unknown \"codec\" \"\(codec)\": h264, vp8, vp9 or mjpeg"))
                    }
                    options.codec = known
                }
                if let bitrate {
                    guard bitrate >= 50, bitrate <= 100_000 else { return .failure(RemoteProtocolError("\"bitrate\" must be 50 to 100000 kbit/s")) }
                    options.bitrate = Int(bitrate)
                }
                if let duration {
                    guard duration > 0, duration.isFinite else { return .failure(RemoteProtocolError("\"duration\" must be a number of seconds > 0")) }
                    options.duration = .microseconds(Int(duration * 1_000_000))
                }
                options.overwrite = overwrite ?? false
            }
            switch (field("segment", Double.self, "a number: seconds"), field("audio", String.self, "\"on\", \"auto\" or \"test-tone\""),
                    field("pre", Double.self, "a number: seconds")) {
            case let (.failure(error), _, _), let (_, .failure(error), _), let (_, _, .failure(error)):
                return .failure(error)
            case let (.success(segment), .success(audio), .success(pre)):
                if let pre {
                    guard pre >= 0.1, pre <= 600 else { return .failure(RemoteProtocolError("\"pre\" must be 0.1 to 600 seconds")) }
                    options.preRoll = .milliseconds(Int(pre * 1000))
                }
                if let segment {
                    guard segment >= 1, segment.isFinite else { return .failure(RemoteProtocolError("\"segment\" must be a number of seconds ≥ 1")) }
                    options.segment = .milliseconds(Int(segment * 1000))
                }
                switch audio {
                case nil: break
                case "on": options.audio = .device
                case "auto": options.audio = .deviceIfAvailable
                case "test-tone": options.audio = .testTone
                case let other?: return .failure(RemoteProtocolError("unknown \"audio\" \"\(other)\": on, auto or test-tone"))
                }
            }
            switch field("path", String.self, "a string: an absolute file path") {
            case let .failure(error): return .failure(error)
            case let .success(path?):
                guard path.hasPrefix("/") else { return .failure(RemoteProtocolError("\"path\" must be absolute: \(path)")) }
                return .success(.action(.startRecording(path: path, options: options)))
            case .success(nil): return .success(.action(.startRecording(path: nil, options: options)))
            }
        case "record_begin":
            return .success(.action(.beginRecording))
        case "record_stop":
            return .success(.action(.stopRecording))
        case "record_status":
            return .success(.recordingStatus)
        case "flash":
            switch field("mode", String.self, "\"off\", \"on\" or \"auto\" (or left out to cycle)") {
            case let .failure(error): return .failure(error)
            case .success(nil): return .success(.action(.flash(nil)))
            case let .success(name?):
                guard let mode = FlashMode(rawValue: name.lowercased()) else {
                    return .failure(RemoteProtocolError("unknown flash \"mode\" \"\(name)\": off, on or auto"))
                }
                return .success(.action(.flash(mode)))
            }
        default:
            return .failure(RemoteProtocolError("unknown command \"\(command)\": expected one of \(commands.joined(separator: ", "))"))
        }
    }

    /// Requests come from any program of this user; the screen writes into folders that exist (or into the
    /// gallery, which it creates) and never creates folders elsewhere on their behalf.
    static func problemWithDirectory(_ directory: String) -> RemoteProtocolError? {
        var info = stat()
        if stat(directory, &info) == 0 {
            return info.st_mode & S_IFMT == S_IFDIR ? nil : RemoteProtocolError("\"directory\" \(directory) is not a folder")
        }
        let gallery = PhotoLibrary().directory
        if directory == gallery || directory + "/" == gallery || directory == gallery + "/" { return nil }
        return RemoteProtocolError("\"directory\" \(directory) does not exist; the camera screen saves only into existing folders "
            + "(or the gallery, \(gallery)): create it first")
    }

    static let commands = ["status", "capture", "zoom", "torch", "focus", "switch", "flash", "record_start", "record_begin", "record_stop",
                           "record_status", "viewer"]

    /// Zoom goes optically first where the camera has it, then digitally; the screen clamps a factor past the
    /// largest to the largest, as the wheel does, and replies with the zoom it applied.
    static let zoomNeeds = "zoom needs \"factor\" (a number, 1 or more; past the camera's largest zoom it is clamped to it) "
        + "or \"step\" (in, out, reset)"

    /// One reply line (without the newline): keys sorted, so replies are stable.
    static func encode(_ object: [String: JSONValue]) -> String {
        JSONValue.line(object) ?? #"{"error":"the reply could not be encoded","ok":false}"#
    }

    static func reply(_ outcome: CameraActionOutcome) -> [String: JSONValue] {
        if outcome.isError { return ["ok": false, "error": .string(outcome.message)] }
        var reply: [String: JSONValue] = ["ok": true, "message": .string(outcome.message)]
        if let photo = outcome.photo {
            reply["path"] = .string(photo.path)
            reply["width"] = photo.width.json
            reply["height"] = photo.height.json
            reply["milliseconds"] = .number((photo.duration.inSeconds * 10_000).rounded() / 10)
            reply["flash"] = .bool(outcome.flashFired)
        }
        if let path = outcome.recordingPath { reply["path"] = .string(path) }
        if let video = outcome.video { reply.merge(videoFields(video)) { _, new in new } }
        return reply
    }

    /// `record_status`: whether the screen records, and what so far; `"last"` tells how the recording this
    /// screen started last ended (the figures of its file, or its error), once it has.
    static func recordingReply(_ status: CameraOperator.Status) -> [String: JSONValue] {
        var reply: [String: JSONValue] = ["ok": true, "recording": false]
        if let last = status.lastRecording {
            switch last.result {
            case .success(let video)?: reply["last"] = .object(videoFields(video))
            case .failure(let error)?: reply["last"] = ["path": .string(last.path), "error": .string(error.description)]
            case nil: break
            }
        }
        guard let recording = status.recording else { return reply }
        reply["recording"] = true
        reply["path"] = .string(recording.path)
        reply["seconds"] = .number((recording.progress.duration.inSeconds * 1000).rounded() / 1000)
        reply["frames"] = recording.progress.frames.json
        reply["dropped"] = recording.progress.droppedFrames.json
        reply["bytes"] = recording.progress.bytes.json
        if let last = status.lastRecording, last.path == recording.path {
            reply["codec"] = .string(last.codec.rawValue)
            reply["encoder"] = .string(last.encoder)
            reply["width"] = last.width.json
            reply["height"] = last.height.json
        }
        return reply
    }

    /// A finished recording's file and figures, as `record_stop` and `record_status`'s "last" give them.
    static func videoFields(_ video: RecordedVideo) -> [String: JSONValue] {
        ["path": .string(video.path), "files": video.files.json, "seconds": .number((video.duration.inSeconds * 1000).rounded() / 1000),
         "frames": video.frames.json, "dropped": video.droppedFrames.json, "bytes": video.bytes.json,
         "codec": .string(video.codec.rawValue), "encoder": .string(video.encoder), "width": video.width.json,
         "height": video.height.json]
    }

    static func reply(_ status: CameraOperator.Status) -> [String: JSONValue] {
        ["ok": true, "camera": .string(status.camera), "width": status.width.json, "height": status.height.json,
         "fps": .number((status.framesPerSecond * 10).rounded() / 10), "zoom": status.zoom.json,
         "frames": status.frames.json, "pid": Int(getpid()).json, "device": .optional(status.device),
         "torch": .optional(status.torch), "focus": .optional(status.focus), "flash": .optional(status.flash?.rawValue)]
    }
}

/// A request the protocol cannot serve; its text is the reply's "error".
public struct RemoteProtocolError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
