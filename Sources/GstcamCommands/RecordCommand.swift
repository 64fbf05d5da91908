import Dispatch
import Synchronization
import Glibc
import GstCamera
import LinuxSystem
import Reports

/// `gstcam record`: open the camera and record a video from it until --duration or Ctrl-C.
enum RecordCommand: Command {
    static let name = "record"
    static let summary = "Record a video: H.264 in MP4 (or VP8/VP9 in WebM), crash-safe."
    static let usage = """
    USAGE: gstcam record [-o FILE | --dir DIR] [--duration SECONDS] [--codec h264|vp8|vp9|mjpeg] [--bitrate KBPS]
                         [--segment SECONDS] [--pre SECONDS] [--audio [auto] | --audio-test-tone] [--json] [camera options]

    Records until --duration has passed or Ctrl-C (the file is finished either way; Ctrl-C exits with status
    130). Without -o the video goes to the Videos folder ($GSTCAM_VIDEO_DIR, else XDG_VIDEOS_DIR/gstcam, e.g.
    ~/Videos/gstcam) as VID_<date>_<time>.mp4, never replacing a file. The encoder is the best one installed
    (hardware H.264, then openh264enc, then x264enc; VP8 when there is no H.264 encoder): the choice and the reason
    are printed. The file is written in fragments: if gstcam is killed, the machine loses power or the disk
    fills up, the file still plays up to the last second. A progress line comes once a second (stderr).
    When a camera screen (gstcam preview) holds the camera, that screen records through its socket and this
    command follows it the same way (--segment, --pre and sound are then refused).

    OPTIONS:
      -o, --output FILE      Where to write the video. Its extension gives the format when --codec does not:
                             .mp4 (H.264), .webm (VP8) or .mkv (Motion-JPEG); a name without one gets the
                             codec's. Another extension, or one that contradicts --codec, is refused.
      --dir DIR              Record into DIR under a new VID_<date>_<time> name.
      --overwrite            Replace FILE if it exists (otherwise an existing file is an error).
      --duration SECONDS     Stop after this much video (fractions allowed); the file holds exactly its frames.
      --codec CODEC          h264 (MP4), vp8 or vp9 (WebM), or mjpeg: the camera's own Motion-JPEG frames
                             into Matroska (.mkv) without re-encoding (an MJPEG mode: --pipeline mjpeg).
                             Default: h264, else vp8.
      --bitrate KBPS         Target bitrate in kbit/s (default: from the frame size, 1000 at 640x480).
      --segment SECONDS      Write consecutive files of SECONDS each (NAME_00001.mp4, _00002…), cut at
                             keyframes with no frame lost between them.
      --pre SECONDS          Keep the last SECONDS of encoded video (and of sound) in memory and wait: the
                             recording starts on SIGUSR2 (kill -USR2 PID) and its file begins SECONDS before that
                             (from the keyframe before; at most a second more). --duration counts from the signal.
      --audio                Record sound too, from the default input (PipeWire, PulseAudio or ALSA): AAC in MP4,
                             Opus in WebM (a pipeline file's own `sound` tee instead, e.g. --pipeline av-test).
                             No sound input is an error naming it.
      --audio auto           Sound when a sound input opens; otherwise a warning (stderr) and video only.
      --audio-test-tone      Record GStreamer's 440 Hz test tone as the sound (machines without sound, tests).
      --json                 Print progress and the result as JSON lines.
    \(CameraOptions.help)
    """

    static func run(_ arguments: inout Arguments) async throws {
        let camera = try CameraOptions(&arguments)
        let output = try arguments.option("-o", "--output")
        let directory = try arguments.option("--dir")
        let overwrite = arguments.flag("--overwrite")
        let duration = try arguments.option("--duration", as: "a number of seconds > 0") { Double($0).flatMap { $0 > 0 && $0.isFinite ? $0 : nil } }
        let askedCodec = try arguments.option("--codec", as: "h264, vp8, vp9 or mjpeg") { VideoCodec(rawValue: $0.lowercased() == "h.264" ? "h264" : $0.lowercased()) }
        let bitrate = try arguments.option("--bitrate", as: "kbit/s from 50 to 100000") { Int($0).flatMap { (50...100_000).contains($0) ? $0 : nil } }
        let segment = try arguments.option("--segment", as: "a number of seconds ≥ 1") { Double($0).flatMap { $0 >= 1 && $0.isFinite ? $0 : nil } }
        let pre = try arguments.option("--pre", as: "a number of seconds from 0.1 to 600") { Double($0).flatMap { $0 >= 0.1 && $0 <= 600 ? $0 : nil } }
        let audioChoice = try arguments.option("--audio", values: ["auto"], bare: "on")
        let audioDevice = audioChoice != nil
        let audioIfAvailable = audioChoice == "auto"
        let testTone = arguments.flag("--audio-test-tone")
        let json = arguments.flag("--json")
        try arguments.finish()
        if audioDevice, testTone { throw UsageError("give --audio or --audio-test-tone, not both") }
        if output != nil, directory != nil { throw UsageError("give either -o FILE or --dir DIR, not both") }
        if output == "-" { throw UsageError("a video is written to a file (the MP4 index needs one); give -o FILE or --dir DIR") }
        if directory != nil, overwrite { throw UsageError("--overwrite goes with -o FILE; --dir never replaces a file") }
        var codec = askedCodec
        if let output {
            do throws(VideoNameProblem) {
                codec = try VideoCodec.forRecording(named: output, asked: askedCodec)
            } catch {
                throw UsageError("\(output): \(error.reason)")
            }
            try VideoFileName.checkNamesAFile(output)
        }

        let audio: RecordingAudio? = audioIfAvailable ? .deviceIfAvailable : audioDevice ? .device : testTone ? .testTone : nil
        if try await ScreenRemote.record(camera: camera, .init(output: output, directory: directory, overwrite: overwrite, duration: duration,
                                                                codec: codec, bitrate: bitrate, segment: segment, audio: audio,
                                                                pre: pre, json: json)) {
            return
        }
        let segmentDuration = segment.map { Duration.milliseconds(Int($0 * 1000)) }
        // With -o, the name is checked (free, in a writable folder) before the camera opens.
        let encoder = try output.map {
            try RecordingTarget(RecordingSettings(path: $0, codec: codec, overwrite: overwrite, segmentDuration: segmentDuration)).choice
        } ?? VideoEncoderChoice.choose(codec)
        Standard.error.write("Encoder: \(encoder.reason)\n")
        let choice = try camera.modeChoice(for: .preview)
        let session = try CameraSession(configuration: choice.configuration, camera: choice.camera)
        let interrupt = Interrupt {}
        defer { session.stop() }
        do {
            try await session.start()
        } catch where interrupt.didFire {
            throw ExitRequest(status: .interrupted)
        }
        try await camera.adjust(session)
        let path: String
        let library = VideoLibrary(directory: directory)
        // A gallery name says when the recording started: a pre-roll's is chosen again as it begins.
        func galleryName() -> String { library.newVideoPath(container: encoder.codec.container, segmented: segment != nil) }
        if let output {
            path = output
        } else {
            try library.createDirectory()
            path = galleryName()
        }
        let settings = RecordingSettings(path: path, codec: encoder.codec, bitrate: bitrate, overwrite: overwrite,
                                         segmentDuration: segmentDuration,
                                         duration: duration.map { .microseconds(Int($0 * 1_000_000)) },
                                         preRoll: pre.map { .milliseconds(Int($0 * 1000)) },
                                         audio: audio)
        // Armed before the recording exists, so a signal sent as soon as "Waiting" is printed is not lost.
        let trigger = pre == nil ? nil : StartSignal()
        let recording = try await session.startRecording(settings)
        if let problem = recording.soundProblem {
            Standard.error.write("gstcam: warning: no sound input could be opened (\(problem)); recording video only.\n")
        }
        if let pre, let trigger {
            Standard.error.write("Keeping the last \(format(pre)) s; send SIGUSR2 to start recording (kill -USR2 \(getpid()))\n")
            if json { print(JSONOutput.line(RecordingRecord.waiting(recording))) }
            fflush(nil)
            while !trigger.fired, !interrupt.didFire {
                if case .failed(let failure) = session.state { throw failure }
                try? await Task.sleep(for: .milliseconds(20))
            }
            if interrupt.didFire {
                Standard.error.write("gstcam: interrupted before the recording started; nothing was saved.\n")
                throw ExitRequest(status: .interrupted)
            }
            try await recording.begin(into: output == nil ? galleryName() : nil)
        }
        if json {
            print(JSONOutput.line(RecordingRecord.started(recording)))
        } else {
            Standard.error.write("Recording \(recording.path) (\(recording.width)x\(recording.height), \(recording.codec.displayName)); Ctrl-C stops\n")
        }
        fflush(nil)
        let result = await follow(recording, session: session, interrupt: interrupt, json: json)
        session.stop()
        switch result {
        case .success(let video):
            report(video, json: json)
            if interrupt.didFire { throw ExitRequest(status: .interrupted) }
        case .failure(let error):
            if let video = recording.lastFigures {
                report(video, json: json)
            } else {
                // The camera failed under the recording (unplugged): stopping the session finishes the file (and it
                // was written in fragments anyway), so it holds what came until then; say so next to the error.
                Standard.error.write("gstcam: \(recording.path) holds the \(format(recording.progress.duration.secondsValue)) s "
                    + "recorded until then and plays.\n")
            }
            throw error
        }
    }

    /// Prints a progress line once a second until the recording ends by itself (its duration, a failure), the
    /// session fails, or Ctrl-C (which stops it normally).
    private static func follow(_ recording: Recording, session: CameraSession, interrupt: Interrupt,
                               json: Bool) async -> Result<RecordedVideo, CameraError> {
        var lastFrames = 0
        var nextLine = ContinuousClock.now + .seconds(1)
        while recording.result == nil, !interrupt.didFire {
            if case .failed(let failure) = session.state { return .failure(failure) }
            if ContinuousClock.now >= nextLine {
                nextLine += .seconds(1)
                let progress = recording.progress
                let fps = progress.frames - lastFrames
                lastFrames = progress.frames
                if json {
                    print(JSONOutput.line(RecordingRecord.progress(progress, fps: fps)))
                } else {
                    Standard.error.write("\(format(progress.duration.secondsValue)) s  \(megabytes(progress.bytes))  \(fps) fps  \(progress.droppedFrames) dropped\n")
                }
                fflush(nil)
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        if let result = recording.result { return result }
        do {
            return .success(try await recording.stop())
        } catch {
            return .failure(error as? CameraError ?? .recordingFailed(path: recording.path, detail: "\(error)"))
        }
    }

    private static func report(_ video: RecordedVideo, json: Bool) {
        if json {
            print(JSONOutput.line(RecordingRecord.saved(video)))
        } else {
            let more = video.files.count > 1 ? " in \(video.files.count) files" : ""
            print("Saved \(video.path) (\(video.width)x\(video.height), \(format(video.duration.secondsValue)) s, \(video.frames) frames, "
                + "\(video.codec.displayName) by \(video.encoder), \(megabytes(video.bytes))\(more))")
        }
        fflush(nil)
    }

    private static func format(_ seconds: Double) -> String { seconds.decimalText(digits: 1) }
    /// A file size as the recording lines give it ("12.3 MB"), here and through a camera screen (ScreenRemote+Record).
    static func megabytes(_ bytes: Int64) -> String { (Double(bytes) / 1_000_000).decimalText(digits: 1) + " MB" }
}

extension Duration {
    /// In seconds, for printing.
    fileprivate var secondsValue: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// SIGUSR2 as the start of a pre-rolled recording (`--pre`).
final class StartSignal: Sendable {
    private let received = Atomic<Bool>(false)
    // DispatchSourceSignal is documented thread-safe for resume/cancel; made once and kept while this lives.
    nonisolated(unsafe) private var source: (any DispatchSourceSignal)?

    init() {
        // Ignored as a plain signal (its default action ends the process); the dispatch source still sees it.
        signal(SIGUSR2, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGUSR2, queue: .global())
        source.setEventHandler { [weak self] in self?.received.store(true, ordering: .relaxed) }
        source.resume()
        self.source = source
    }

    var fired: Bool { received.load(ordering: .relaxed) }
}
