import CGStreamer
import CameraErrors
import GStreamer
import LinuxSystem
import MediaFiles
import PipelineFiles

/// Which encoder records, and why: the first one installed (and usable on this machine) in the order of
/// `candidates` — hardware H.264 (VA-API low-power, VA-API, V4L2 memory-to-memory), then OpenH264, then
/// x264 — for H.264 in MP4; VP8 (or VP9) in WebM when no H.264 encoder exists or when asked.
/// Each candidate is a pipeline file (pipelines/record-<name>.branch); one is available when GStreamer can
/// make every element of it (hardware encoders exist only where their device does).
public struct VideoEncoderChoice: Sendable, Equatable {
    /// The encoder branch file, e.g. "record-x264.branch".
    public let file: String
    /// The encoder element's factory, e.g. "x264enc".
    public let encoder: String
    public let codec: VideoCodec
    /// One sentence for people: what was chosen and why the ones before it were not.
    public let reason: String

    struct Candidate: Sendable {
        let name: String
        let codec: VideoCodec
        let hardware: Bool
        var file: String { "record-\(name).branch" }
    }

    static let candidates: [Candidate] = [
        Candidate(name: "vah264lp", codec: .h264, hardware: true),
        Candidate(name: "vah264", codec: .h264, hardware: true),
        Candidate(name: "v4l2h264", codec: .h264, hardware: true),
        Candidate(name: "openh264", codec: .h264, hardware: false),
        Candidate(name: "x264", codec: .h264, hardware: false),
        Candidate(name: "vp8", codec: .vp8, hardware: false),
        Candidate(name: "vp9", codec: .vp9, hardware: false),
        // Not an encoder: the camera's JPEGs as they come (record-mjpeg.branch), only when asked for.
        Candidate(name: "mjpeg", codec: .mjpeg, hardware: false),
    ]

    /// The encoder for `codec` (nil: H.264, else VP8). Throws `noVideoEncoder` naming what to install.
    public static func choose(_ codec: VideoCodec? = nil) throws -> VideoEncoderChoice {
        let wanted: [VideoCodec] = codec.map { [$0] } ?? [.h264, .vp8]
        var skipped: [RecordingChoiceProblem] = []
        for codec in wanted {
            for candidate in candidates where candidate.codec == codec {
                switch availability(of: candidate) {
                case .success(let encoder):
                    return VideoEncoderChoice(file: candidate.file, encoder: encoder, codec: codec,
                                              reason: reason(for: candidate, encoder: encoder, asked: codec, skipped: skipped))
                case .failure(let why):
                    skipped.append(why)
                }
            }
        }
        throw CameraError.noVideoEncoder(codec: codec?.displayName ?? "H.264 or VP8", tried: skipped.map(\.description))
    }

    /// The encoder's factory name when the candidate's file can be made here, else why not ("x264enc is not
    /// installed (gstreamer1.0-plugins-ugly)").
    static func availability(of candidate: Candidate) -> Result<String, RecordingChoiceProblem> {
        do {
            let file = try PipelineFile.load(candidate.file)
            let sample = ["kbps": "1000", "bps": "1000000", "keyframe_interval": "30"]
            let bin = try PipelineParser.parseBin(try file.description(with: sample), file: file.path)
            defer { bin.setState(GST_STATE_NULL) }
            guard let encoder = bin.child(named: "encoder") else {
                return .failure(RecordingChoiceProblem("\(candidate.file) has no element named \"encoder\""))
            }
            return .success(encoder.factoryName)
        } catch CameraError.missingElement(let factory, let package, _) {
            let from = package.map { " (\($0))" } ?? ""
            return .failure(RecordingChoiceProblem(candidate.hardware ? "\(factory) is not available here"
                                                                       : "\(factory) is not installed\(from)"))
        } catch {
            return .failure(RecordingChoiceProblem("\(candidate.file): \(error)"))
        }
    }

    private static func reason(for candidate: Candidate, encoder: String, asked: VideoCodec,
                               skipped: [RecordingChoiceProblem]) -> String {
        if asked == .mjpeg { return "none: the camera's own Motion-JPEG frames into Matroska, not re-encoded (\(encoder) only parses them)" }
        let kind = candidate.hardware ? "hardware" : "software"
        var text = "\(encoder) (\(asked.displayName) in \(asked.container.displayName), \(kind))"
        if skipped.isEmpty {
            text += ": the first encoder in gstcam's order"
        } else {
            text += ": " + skipped.map(\.description).joined(separator: ", ")
        }
        return text
    }
}

/// Why one encoder candidate cannot be used.
struct RecordingChoiceProblem: Error, Sendable, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Element {
    /// The name of the factory that made this element, e.g. "x264enc".
    var factoryName: String {
        guard let factory = gst_element_get_factory(pointer) else { return "?" }
        return takeGString(gstcam_object_dup_name(UnsafeMutableRawPointer(factory))) ?? "?"
    }
}
