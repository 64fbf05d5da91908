import Foundation
@testable import GstCamera

/// What ffprobe (FFmpeg's, not ours) reads from a video file, with every frame counted by decoding it.
struct ProbedVideo {
    let codec: String
    let width: Int
    let height: Int
    let frames: Int
    /// The container's duration; nil where it has none (a WebM cut off before its end).
    let duration: Double?
    /// When the first frame is shown, in seconds.
    let start: Double?
    let probeErrors: String

    static func read(_ path: String) throws -> ProbedVideo {
        let result = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                    "-show_entries", "stream=codec_name,width,height,nb_read_frames:format=duration,start_time",
                                    "-of", "default=noprint_wrappers=1", path])
        var fields: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return ProbedVideo(codec: fields["codec_name"] ?? "", width: Int(fields["width"] ?? "") ?? 0,
                           height: Int(fields["height"] ?? "") ?? 0, frames: Int(fields["nb_read_frames"] ?? "") ?? 0,
                           duration: Double(fields["duration"] ?? ""), start: Double(fields["start_time"] ?? ""), probeErrors: result.error)
    }
}

/// Decodes every frame of `path` with ffmpeg; returns its exit status and what it printed at level error.
func decodeEveryFrame(_ path: String) throws -> (status: Int32, errors: String) {
    // Each frame passed on as the file has it, in the file's own time base: with a constant-rate output, or timestamps
    // rounded to 1/fps (the default encoder time base), ffmpeg's own null muxer would complain ("non monotonically
    // increasing dts") about frames closer together than 1/fps — as at a camera switch — which is not the file's fault.
    let result = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-fps_mode", "passthrough",
                                                    "-enc_time_base", "-1", "-f", "null", "-"])
    return (result.status, result.error)
}

/// Every frame of `path` as RGB, decoded by ffmpeg at its own size: each frame once, as the file has them (no
/// frames repeated or dropped to make a constant rate).
func decodedFrames(_ path: String, width: Int, height: Int) throws -> [[UInt8]] {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let raw = folder + "/frames.rgb"
    let result = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-fps_mode", "passthrough", "-f", "rawvideo",
                                                    "-pix_fmt", "rgb24", raw])
    guard result.status == 0 else { throw DecodeError(message: "ffmpeg could not decode \(path): \(result.error)") }
    let bytes = [UInt8](FileManager.default.contents(atPath: raw) ?? Data())
    let size = width * height * 3
    return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
}

/// The virtual camera's sequence stamp (docs/virtual-camera.md): 32 blocks along the bottom 16 rows.
func sequenceStamp(_ rgb: [UInt8], width: Int, height: Int) -> UInt32 {
    var value: UInt32 = 0
    for block in 0..<32 {
        let x = block * (width / 32) + width / 64, y = height - 8
        let offset = (y * width + x) * 3
        let luma = (Int(rgb[offset]) * 299 + Int(rgb[offset + 1]) * 587 + Int(rgb[offset + 2]) * 114) / 1000
        value = value << 1 | (luma > 128 ? 1 : 0)
    }
    return value
}

/// The virtual camera's sequence stamp read from a preview frame (RGB).
func sequenceStamp(_ frame: Frame) -> UInt32 {
    (0..<32).reduce(UInt32(0)) { value, block in
        let pixel = frame.rgb(x: block * (frame.width / 32) + frame.width / 64, y: frame.height - 8)
        let luma = (Int(pixel.red) * 299 + Int(pixel.green) * 587 + Int(pixel.blue) * 114) / 1000
        return value << 1 | (luma > 128 ? 1 : 0)
    }
}

/// The colour in the middle of the identity band (the top sixth of the picture).
func identityColour(_ rgb: [UInt8], width: Int, height: Int) -> (Int, Int, Int) {
    let offset = ((height / 12) * width + width / 2) * 3
    return (Int(rgb[offset]), Int(rgb[offset + 1]), Int(rgb[offset + 2]))
}
