import Glibc
import CameraErrors
import GStreamer
import LinuxSystem

/// A pipeline description file: gst-launch syntax, `#` comment lines, and `${name}` placeholders.
public struct PipelineFile: Sendable {
    /// The file as given (for messages) and as opened.
    public let path: String
    /// The description without comment lines.
    public let template: String

    /// Loads `nameOrPath`: a path to a file, or a bare name looked up in the pipelines folder
    /// ("mjpeg" → pipelines/mjpeg.pipeline, "photo-jpeg.branch" → pipelines/photo-jpeg.branch).
    public static func load(_ nameOrPath: String) throws -> PipelineFile {
        let path: String
        if nameOrPath.contains("/" as Character) {
            path = nameOrPath
        } else {
            let file = nameOrPath.contains("." as Character) ? nameOrPath : nameOrPath + ".pipeline"
            path = try PipelineDirectory.find() + "/" + file
        }
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.open(path, O_RDONLY).readToEnd()
        } catch {
            let reason = error.code == ENOENT ? "does not exist" : "cannot be read (\(String(cString: strerror(error.code))))"
            throw CameraError.badPipelineFile(file: path, detail: "the file \(reason)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CameraError.badPipelineFile(file: path, detail: "the file is not UTF-8 text")
        }
        // Swift's own whitespace test: Foundation's trimmingCharacters bridges every line through NSString (0.6 ms
        // of a cold preview's CPU for the few files it loads).
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.drop(while: \.isWhitespace).hasPrefix("#") }
        let joined = lines.joined(separator: "\n")
        let start = joined.firstIndex { !$0.isWhitespace } ?? joined.endIndex
        let end = joined.lastIndex { !$0.isWhitespace }.map { joined.index(after: $0) } ?? start
        let template = String(joined[start..<end])
        guard !template.isEmpty else {
            throw CameraError.badPipelineFile(file: path, detail: "the file has no pipeline description")
        }
        return PipelineFile(path: path, template: template)
    }

    /// The largest frame side GStreamer's raw video caps and V4L2 sources accept (v4l2src's template caps).
    static let maximumFrameSide = 32768

    /// A size no camera or GStreamer element can make fails here, in words, instead of as GStreamer's "could not
    /// link source to source-caps" against the pipeline file. (Whether this camera has the size is the mode
    /// choice's question; this only rules out the impossible.)
    static func checkFrameSize(_ parameters: [String: String]) throws {
        guard let width = parameters["width"].flatMap({ Int($0) }), let height = parameters["height"].flatMap({ Int($0) }) else { return }
        let sides = 1...maximumFrameSide
        guard sides.contains(width), sides.contains(height) else {
            let device = parameters["device"].flatMap { $0.isEmpty ? nil : $0 }
            throw CameraError.negotiationFailed(device: device, detail: "\(width)x\(height) is not a size a camera or GStreamer can "
                + "make (each side must be 1 to \(maximumFrameSide) pixels)")
        }
    }

    /// The placeholder names the file uses, in order of appearance.
    public var placeholders: [String] {
        var names: [String] = []
        var rest = template[...]
        while let open = rest.firstRange(ofText: "${") {
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            let name = String(rest[open.upperBound..<close])
            if !names.contains(name) { names.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// The description with every `${name}` replaced. Values are escaped for gst-launch's double-quoted
    /// strings (the files quote free-form values such as device paths); a placeholder with no value is an
    /// error naming the file.
    public func description(with parameters: [String: String]) throws -> String {
        try Self.checkFrameSize(parameters)
        var result = ""
        var rest = template[...]
        while let open = rest.firstRange(ofText: "${") {
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                throw CameraError.badPipelineFile(file: path, detail: "a ${ has no closing }")
            }
            let name = String(rest[open.upperBound..<close])
            guard let value = parameters[name] else { throw CameraError.unknownPipelineParameter(file: path, name: name) }
            result += rest[..<open.lowerBound]
            result += PipelineParser.escapedForQuotes(value)
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
