import Foundation

/// The line-based JSON protocol of a running camera screen (docs/camera-screen.md): one JSON object per line
/// in, one JSON object per line back, in order. Every reply has "ok"; a failed request has "error" instead of
/// its results. Unknown fields are ignored; a line that is not a known request gets an error reply.
enum RemoteRequest: Equatable {
    case status
    case action(CameraAction)

    /// The request a line asks for, or the error text to reply with.
    static func parse(_ line: String) -> Result<RemoteRequest, RemoteProtocolError> {
        guard let data = line.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return .failure(RemoteProtocolError("not a JSON object: send one object per line, e.g. {\"command\":\"status\"}"))
        }
        guard let command = object["command"] as? String else {
            return .failure(RemoteProtocolError("no \"command\": expected one of \(commands.joined(separator: ", "))"))
        }
        func number(_ key: String) -> Double? { (object[key] as? NSNumber).map(\.doubleValue) }
        switch command {
        case "status":
            return .success(.status)
        case "capture":
            let overwrite = object["overwrite"] as? Bool ?? false
            if let path = object["path"] as? String {
                guard path.hasPrefix("/") else { return .failure(RemoteProtocolError("\"path\" must be absolute: \(path)")) }
                return .success(.action(.captureTo(path: path, overwrite: overwrite)))
            }
            if let directory = object["directory"] as? String {
                guard directory.hasPrefix("/") else { return .failure(RemoteProtocolError("\"directory\" must be absolute: \(directory)")) }
                return .success(.action(.captureInto(directory: directory)))
            }
            return .success(.action(.capture))
        case "zoom":
            if let factor = number("factor"), factor.isFinite { return .success(.action(.zoom(factor: factor))) }
            switch object["step"] as? String {
            case "in": return .success(.action(.zoomIn))
            case "out": return .success(.action(.zoomOut))
            case "reset": return .success(.action(.resetZoom))
            default: return .failure(RemoteProtocolError("zoom needs \"factor\" (a number, 1…8) or \"step\" (in, out, reset)"))
            }
        case "torch":
            if let on = object["on"] as? Bool { return .success(.action(.torch(on: on))) }
            return .success(.action(.toggleTorch))
        case "focus":
            if let x = number("x"), let y = number("y"), (0...1).contains(x), (0...1).contains(y) {
                return .success(.action(.focus(at: NormalizedPoint(x: x, y: y))))
            }
            if object["x"] != nil || object["y"] != nil {
                return .failure(RemoteProtocolError("focus at a point needs \"x\" and \"y\" from 0 to 1"))
            }
            switch object["mode"] as? String {
            case nil, "once": return .success(.action(.focusOnce))
            case "toggle-continuous": return .success(.action(.toggleContinuousFocus))
            case let other?: return .failure(RemoteProtocolError("unknown focus mode \"\(other)\": once or toggle-continuous"))
            }
        case "switch":
            return .success(.action(.nextCamera))
        default:
            return .failure(RemoteProtocolError("unknown command \"\(command)\": expected one of \(commands.joined(separator: ", "))"))
        }
    }

    static let commands = ["status", "capture", "zoom", "torch", "focus", "switch"]

    /// One reply line (without the newline): keys sorted, so replies are stable.
    static func encode(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return #"{"error":"the reply could not be encoded","ok":false}"#
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func reply(_ outcome: CameraActionOutcome) -> [String: Any] {
        if outcome.isError { return ["ok": false, "error": outcome.message] }
        var reply: [String: Any] = ["ok": true, "message": outcome.message]
        if let photo = outcome.photo {
            reply["path"] = photo.path
            reply["width"] = photo.width
            reply["height"] = photo.height
            reply["milliseconds"] = (photo.duration.inSeconds * 10_000).rounded() / 10
        }
        return reply
    }

    static func reply(_ status: CameraOperator.Status) -> [String: Any] {
        var reply: [String: Any] = ["ok": true, "camera": status.camera, "width": status.width, "height": status.height,
                                    "fps": (status.framesPerSecond * 10).rounded() / 10, "zoom": status.zoom,
                                    "frames": status.frames, "pid": Int(getpid())]
        reply["device"] = status.device ?? NSNull()
        reply["torch"] = status.torch ?? NSNull()
        reply["focus"] = status.focus ?? NSNull()
        return reply
    }
}

/// A request the protocol cannot serve; its text is the reply's "error".
public struct RemoteProtocolError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
