import Glibc
import CameraErrors
import GStreamer
import LinuxSystem
import MediaFiles
import PipelineFiles

extension CameraSession {
    /// Starts recording the running camera into `settings.path` while the preview and photos go on; returns
    /// once the first frame is in the file. The encoder is the best one installed for the codec asked
    /// (`VideoEncoderChoice`); the recording's `encoderReason` says which and why.
    /// One recording at a time (`alreadyRecording`); an existing file is kept unless `overwrite`.
    public func startRecording(_ settings: RecordingSettings) async throws -> Recording {
        var settings = settings
        let pipeline = try runningPipeline()
        // A pipeline that makes its own sound (a `sound` tee) is the sound input: no sound card is asked.
        let soundTee = settings.audio == .testTone ? nil : pipeline.sound
        var soundProblem: String?
        if settings.audio == .deviceIfAvailable {
            soundProblem = soundTee == nil ? SoundInputCheck.problem() : nil
            settings.audio = soundProblem == nil ? .device : nil
        }
        if let current = shared.withLock({ $0.recording }) { throw CameraError.alreadyRecording(path: current.path) }
        let target = try RecordingTarget(settings)
        let choice = target.choice
        let container = choice.codec.container.rawValue
        let writer = try PipelineFile.load(settings.segmentDuration == nil ? "record-\(container).branch"
                                                                            : "record-segments-\(container).branch")
        let encoderFile = try PipelineFile.load(choice.file)
        // Motion-JPEG is recorded from the camera's own JPEGs (the `camera-jpeg` tee before the decoder), so
        // only from a pipeline that has them.
        let branches: TeeBranches
        if choice.codec == .mjpeg {
            guard let cameraJPEG = pipeline.shutter.cameraJPEG else {
                throw CameraError.noMotionJPEG(device: device, mode: "\(configuration.width)x\(configuration.height), not MJPEG")
            }
            let digital = zoom.digitalFactor
            guard digital <= 1.001 else { throw CameraError.zoomNotInCameraJPEG(factor: digital) }
            guard configuration.orientation.isNormal else { throw CameraError.turnedNotInCameraJPEG }
            branches = cameraJPEG.branches
        } else {
            branches = pipeline.branches
        }
        let audioFiles = try settings.audio.map { audio in
            (source: try PipelineFile.load(soundTee == nil ? audio.sourceFile : RecordingAudio.pipelineSoundFile),
             encoder: try PipelineFile.load(choice.codec.container == .mp4 ? "record-audio-aac.branch" : "record-audio-opus.branch"))
        }
        let bitrate = settings.bitrate ?? RecordingSettings.defaultBitrate(width: configuration.width, height: configuration.height)
        let parameters = [
            "kbps": "\(bitrate)",
            "bps": "\(bitrate * 1000)",
            "keyframe_interval": "\(RecordingSettings.keyframeInterval(framesPerSecond: configuration.framerate.value))",
            "location": target.location,
            "segment_nanoseconds": "\(Int64((settings.segmentDuration?.inSeconds ?? 0) * 1e9))",
        ]
        if settings.overwrite, target.segmentPattern == nil { unlink(target.path) }
        let recording = Recording(
            path: target.path, segmentPattern: target.segmentPattern, choice: choice,
            width: configuration.width, height: configuration.height, soundProblem: soundProblem,
            detach: { [weak self] in self?.shared.withLock { $0.recording = nil } },
            notifySession: { [weak self] event in self?.notify(.recording(event)) })
        try shared.withLock { shared in
            if let current = shared.recording { throw CameraError.alreadyRecording(path: current.path) }
            shared.recording = recording
        }
        do {
            let branch = try RecordBranch(
                branches: branches, encoder: encoderFile, writer: writer, parameters: parameters,
                path: recording.path, limit: settings.duration, preRoll: settings.preRoll, audio: audioFiles,
                soundTee: audioFiles == nil ? nil : soundTee,
                onStarted: { [weak recording] in recording?.branchStarted() },
                onFailed: { [weak recording] error in recording?.branchFailed(error) },
                onEnded: { [weak recording] in recording?.branchEnded() })
            recording.attach(branch)
            if settings.preRoll == nil { try await recording.waitForFirstFrame(timeout: configuration.startTimeout) }
        } catch {
            recording.branch?.remove()
            shared.withLock { if $0.recording === recording { $0.recording = nil } }
            // Nothing was recorded: the empty file the sink opened would only block the name (`--audio auto`
            // tries again without sound under the same name).
            if let status = try? SystemCalls.status(recording.path), status.isRegularFile, status.st_size == 0 { unlink(recording.path) }
            // The muxer writes nothing until every stream has data: a sound input that opens but never delivers
            // (no card behind it) shows as no first frame.
            if settings.audio != nil, case CameraError.timeout = error {
                let input = soundTee == nil ? "the default input" : "the `sound` tee of \(pipelineFile.path)"
                throw CameraError.audioUnavailable(detail: "no sound came from \(input) within "
                    + CameraError.seconds(configuration.startTimeout.inSeconds))
            }
            throw error
        }
        return recording
    }

    /// The recording in progress, if any.
    public var currentRecording: Recording? { shared.withLock { $0.recording } }

    /// `path` with the container's extension added when it has none (`RecordingTarget` has refused any other).
    static func videoPath(_ path: String, container: VideoContainer) -> String {
        VideoContainer(fileExtension: FilePath.splitExtension(FilePath.lastComponent(of: path)).extension ?? "") == container
            ? path : path + "." + container.fileExtension
    }

    /// The folder must exist and be writable, and the file must not exist unless it may be replaced.
    static func checkVideoOutput(_ path: String, overwrite: Bool) throws {
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var info = stat()
        guard stat(folder.isEmpty ? "/" : folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw CameraError.outputNotWritable(path: path, reason: "the folder \(folder) does not exist")
        }
        guard access(folder.isEmpty ? "/" : folder, W_OK) == 0 else {
            throw CameraError.outputNotWritable(path: path, reason: "the folder \(folder) is not writable")
        }
        if lstat(path, &info) == 0 {
            guard overwrite else { throw CameraError.outputExists(path: path) }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw CameraError.outputNotWritable(path: path, reason: "it is not a regular file")
            }
        }
    }
}
