import FoundationEssentials
import Glibc
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
        var start: [String: JSONValue] = ["command": "record_start"]
        if let output = request.output {
            start["path"] = absolute(output).json
        } else if let directory = request.directory {
            let library = VideoLibrary(directory: absolute(directory))
            try library.createDirectory()  // the screen makes no folders for requests; this command may
            start["path"] = library.newVideoPath(container: try VideoEncoderChoice.choose(request.codec).codec.container,
                                                 segmented: request.segment != nil).json
        }
        if let segment = request.segment { start["segment"] = segment.json }
        if let pre = request.pre { start["pre"] = pre.json }
        switch request.audio {
        case .device?: start["audio"] = "on"
        case .deviceIfAvailable?: start["audio"] = "auto"
        case .testTone?: start["audio"] = "test-tone"
        case nil: break
        }
        if let codec = request.codec { start["codec"] = codec.rawValue.json }
        if let bitrate = request.bitrate { start["bitrate"] = bitrate.json }
        if let duration = request.duration { start["duration"] = duration.json }
        if request.overwrite { start["overwrite"] = true }

        let interrupt = Interrupt {}
        // Armed before the request, so a signal sent as soon as "Keeping" is printed is not lost.
        let trigger = request.pre == nil ? nil : StartSignal()
        let started = try client.request(start)
        guard let path = started["path"]?.string else { throw RemoteProtocolError("the session at \(client.path) named no video file") }
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
        let width = status["width"]?.int ?? 0, height = status["height"]?.int ?? 0
        let codec = (status["codec"]?.string).flatMap(VideoCodec.init(rawValue:))
        if request.json {
            print(JSONOutput.line(RecordingRecord(event: "started", path: path, codec: codec?.rawValue,
                                                  encoder: status["encoder"]?.string, width: width, height: height)))
        } else {
            Standard.error.write("Recording \(path) (\(width)x\(height), \(codec?.displayName ?? "?") by \(status["encoder"]?.string ?? "?")) "
                + "through the camera screen at \(client.path); Ctrl-C stops\n")
        }
        fflush(nil)

        var lastFrames = 0
        var nextLine = ContinuousClock.now + .seconds(1)
        var ended: [String: JSONValue]?
        while !interrupt.didFire {
            let status = try client.request(["command": "record_status"])
            if status["recording"]?.bool != true || status["path"]?.string != path {
                ended = status["last"]?.object
                break
            }
            if ContinuousClock.now >= nextLine {
                nextLine += .seconds(1)
                let frames = status["frames"]?.int ?? 0
                let seconds = status["seconds"]?.double ?? 0, bytes = status["bytes"]?.int64 ?? 0
                let dropped = status["dropped"]?.int ?? 0
                if request.json {
                    print(JSONOutput.line(RecordingRecord(event: "progress", seconds: seconds, frames: frames, fps: frames - lastFrames,
                                                          dropped: dropped, bytes: bytes, paused: false)))
                } else {
                    Standard.error.write("\(seconds.decimalText(digits: 1)) s  \(RecordCommand.megabytes(bytes))  \(frames - lastFrames) fps  \(dropped) dropped\n")
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
                ended = try client.request(["command": "record_status"])["last"]?.object
            }
        }
        guard let ended, ended["path"]?.string == path else {
            throw RemoteProtocolError("the camera screen at \(client.path) stopped recording \(path) without saying how "
                + "(another client stopped it, or started another recording); the file holds what was recorded")
        }
        if let error = ended["error"]?.string { throw RemoteProtocolError(error) }
        let video = RecordingRecord(event: "saved", path: path, files: ended["files"]?.array?.compactMap(\.string), codec: ended["codec"]?.string,
                                    encoder: ended["encoder"]?.string, width: ended["width"]?.int, height: ended["height"]?.int,
                                    seconds: ended["seconds"]?.double, frames: ended["frames"]?.int,
                                    dropped: ended["dropped"]?.int, bytes: ended["bytes"]?.int64)
        if request.json {
            print(JSONOutput.line(video))
        } else {
            let codecName = video.codec.flatMap(VideoCodec.init(rawValue:))?.displayName ?? "?"
            print("Saved \(path) (\(video.width ?? 0)x\(video.height ?? 0), \((video.seconds ?? 0).decimalText(digits: 1)) s, "
                + "\(video.frames ?? 0) frames, \(codecName) by \(video.encoder ?? "?"), \(RecordCommand.megabytes(video.bytes ?? 0))) through the running preview")
        }
        fflush(nil)
        if interrupt.didFire { throw ExitRequest(status: .interrupted) }
        return true
    }
}
