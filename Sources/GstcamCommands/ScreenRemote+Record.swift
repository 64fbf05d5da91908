import Foundation
import GstCamera
import LinuxSystem
import Reports
import Screen

/// `gstcam record` while a camera screen (`gstcam preview`) runs on the same camera: that screen's session
/// records (`record_start` on its socket: no second open of the device, the preview goes on), and this command
/// prints the same progress lines, stops the recording on Ctrl-C and reports the file as the standalone
/// command does. `--duration` is the screen's own frame count, so the file is exactly as long.
extension ScreenRemote {
    struct RecordRequest {
        var output: String?
        var directory: String?
        var overwrite: Bool
        var duration: Double?
        var codec: VideoCodec?
        var bitrate: Int?
        var segment: Double?
        var audio: RecordingAudio?
        /// Pre-roll (`--pre`): the screen keeps that much video, and SIGUSR2 to this command starts the file.
        var pre: Double?
        var json: Bool
    }

    /// Records through the running screen; false when no screen serves this camera.
    static func record(camera: CameraOptions, _ request: RecordRequest) async throws -> Bool {
        guard let client = client(for: camera) else { return false }
        try applySettings(camera, through: client)
        var start: [String: any Sendable] = ["command": "record_start"]
        if let output = request.output {
            start["path"] = absolute(output)
        } else if let directory = request.directory {
            let library = VideoLibrary(directory: absolute(directory))
            try library.createDirectory()  // the screen makes no folders for requests; this command may
            start["path"] = library.newVideoPath(container: try VideoEncoderChoice.choose(request.codec).codec.container,
                                                 segmented: request.segment != nil)
        }
        if let segment = request.segment { start["segment"] = segment }
        if let pre = request.pre { start["pre"] = pre }
        switch request.audio {
        case .device?: start["audio"] = "on"
        case .deviceIfAvailable?: start["audio"] = "auto"
        case .testTone?: start["audio"] = "test-tone"
        case nil: break
        }
        if let codec = request.codec { start["codec"] = codec.rawValue }
        if let bitrate = request.bitrate { start["bitrate"] = bitrate }
        if let duration = request.duration { start["duration"] = duration }
        if request.overwrite { start["overwrite"] = true }

        let interrupt = Interrupt {}
        // Armed before the request, so a signal sent as soon as "Keeping" is printed is not lost.
        let trigger = request.pre == nil ? nil : StartSignal()
        let started = try client.request(start)
        guard let path = started["path"] as? String else { throw RemoteProtocolError("the session at \(client.path) named no video file") }
        if let pre = request.pre, let trigger {
            Standard.error.write("Keeping the last \(pre) s in the camera screen at \(client.path); send SIGUSR2 to start recording "
                + "(kill -USR2 \(getpid()))\n")
            if request.json { print(JSONOutput.line(RecordingRecord(event: "waiting", path: path))) }
            fflush(nil)
            while !trigger.fired, !interrupt.didFire { try? await Task.sleep(for: .milliseconds(20)) }
            if interrupt.didFire {
                _ = try? client.request(["command": "record_stop"])
                Standard.error.write("gstcam: interrupted before the recording started; nothing was saved.\n")
                throw ExitRequest(status: .interrupted)
            }
            _ = try client.request(["command": "record_begin"])
        }
        let status = try client.request(["command": "record_status"])
        let width = status["width"] as? Int ?? 0, height = status["height"] as? Int ?? 0
        let codec = (status["codec"] as? String).flatMap(VideoCodec.init(rawValue:))
        if request.json {
            print(JSONOutput.line(RecordingRecord(event: "started", path: path, codec: codec?.rawValue,
                                                  encoder: status["encoder"] as? String, width: width, height: height)))
        } else {
            Standard.error.write("Recording \(path) (\(width)x\(height), \(codec?.displayName ?? "?") by \(status["encoder"] as? String ?? "?")) "
                + "through the camera screen at \(client.path); Ctrl-C stops\n")
        }
        fflush(nil)

        var lastFrames = 0
        var nextLine = ContinuousClock.now + .seconds(1)
        var ended: [String: Any]?
        while !interrupt.didFire {
            let status = try client.request(["command": "record_status"])
            if status["recording"] as? Bool != true || status["path"] as? String != path {
                ended = status["last"] as? [String: Any]
                break
            }
            if ContinuousClock.now >= nextLine {
                nextLine += .seconds(1)
                let frames = status["frames"] as? Int ?? 0
                let seconds = status["seconds"] as? Double ?? 0, bytes = (status["bytes"] as? NSNumber)?.int64Value ?? 0
                let dropped = status["dropped"] as? Int ?? 0
                if request.json {
                    print(JSONOutput.line(RecordingRecord(event: "progress", seconds: seconds, frames: frames, fps: frames - lastFrames,
                                                          dropped: dropped, bytes: bytes, paused: false)))
                } else {
                    Standard.error.write("\(String(format: "%.1f", seconds)) s  \(megabytes(bytes))  \(frames - lastFrames) fps  \(dropped) dropped\n")
                }
                lastFrames = frames
                fflush(nil)
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        if interrupt.didFire {
            do {
                ended = try client.request(["command": "record_stop"])
            } catch {
                // Ended meanwhile (its duration, a failure): how is in the status.
                ended = try client.request(["command": "record_status"])["last"] as? [String: Any]
            }
        }
        guard let ended, ended["path"] as? String == path else {
            throw RemoteProtocolError("the camera screen at \(client.path) stopped recording \(path) without saying how "
                + "(another client stopped it, or started another recording); the file holds what was recorded")
        }
        if let error = ended["error"] as? String { throw RemoteProtocolError(error) }
        let video = RecordingRecord(event: "saved", path: path, files: ended["files"] as? [String], codec: ended["codec"] as? String,
                                    encoder: ended["encoder"] as? String, width: ended["width"] as? Int, height: ended["height"] as? Int,
                                    seconds: ended["seconds"] as? Double, frames: ended["frames"] as? Int,
                                    dropped: ended["dropped"] as? Int, bytes: (ended["bytes"] as? NSNumber)?.int64Value)
        if request.json {
            print(JSONOutput.line(video))
        } else {
            let codecName = video.codec.flatMap(VideoCodec.init(rawValue:))?.displayName ?? "?"
            print("Saved \(path) (\(video.width ?? 0)x\(video.height ?? 0), \(String(format: "%.1f", video.seconds ?? 0)) s, "
                + "\(video.frames ?? 0) frames, \(codecName) by \(video.encoder ?? "?"), \(megabytes(video.bytes ?? 0))) through the running preview")
        }
        fflush(nil)
        if interrupt.didFire { throw ExitRequest(status: .interrupted) }
        return true
    }

    private static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
}
