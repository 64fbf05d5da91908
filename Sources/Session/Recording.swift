import Dispatch
import Glibc
import Synchronization
import CameraErrors
import GStreamer
import LinuxSystem
import MediaFiles
import PipelineFiles

/// A recording in progress, made by `CameraSession.startRecording`. The camera's preview and photos go on
/// meanwhile. `stop()` finishes the file; a recording that fails by itself (a full disk) ends with
/// `RecordingEvent.failed`, leaving a file that plays up to the failure.
public final class Recording: Sendable {
    /// The file being written (with segments: the first one; `files` lists them all).
    public var path: String { state.withLock { $0.location.path } }
    public let codec: VideoCodec
    /// The encoder element, e.g. "openh264enc", and why it was chosen.
    public let encoder: String
    public let encoderReason: String
    public let width: Int
    public let height: Int
    /// The `location` pattern of a segmented recording (splitmuxsink's %05d), nil for one file.
    var segmentPattern: String? { state.withLock { $0.location.segmentPattern } }
    /// With `RecordingAudio.deviceIfAvailable`: why the recording has no sound (nil when it has).
    public let soundProblem: String?

    private enum Phase {
        case recording
        /// The result, and the event that told it (stopped or failed, with the figures of the file).
        case ended(Result<RecordedVideo, CameraError>, RecordingEvent)
    }

    private struct State {
        /// The file, and a segmented recording's pattern: set at the start, or when a pre-roll begins into a new name.
        var location: (path: String, segmentPattern: String?)
        var phase = Phase.recording
        var started = false
        var observers: [Int: AsyncStream<RecordingEvent>.Continuation] = [:]
        var nextObserver = 0
        var paused = false
    }

    private let state: Mutex<State>
    private let firstFrame = OneShot<Void>()
    private let ending = OneShot<RecordedVideo>()
    /// Set once, right after init (the branch's callbacks need the recording first).
    private let branchSlot = Mutex<RecordBranch?>(nil)
    /// Tells the session this recording is over (it may record again).
    private let detach: @Sendable () -> Void
    private let notifySession: @Sendable (RecordingEvent) -> Void
    private let startedAt = ContinuousClock.now

    init(path: String, segmentPattern: String?, choice: VideoEncoderChoice, width: Int, height: Int,
         soundProblem: String? = nil,
         detach: @escaping @Sendable () -> Void, notifySession: @escaping @Sendable (RecordingEvent) -> Void) {
        self.soundProblem = soundProblem
        state = Mutex(State(location: (path, segmentPattern)))
        codec = choice.codec
        encoder = choice.encoder
        encoderReason = choice.reason
        self.width = width
        self.height = height
        self.detach = detach
        self.notifySession = notifySession
    }

    func attach(_ branch: RecordBranch) { branchSlot.withLock { $0 = branch } }
    var branch: RecordBranch? { branchSlot.withLock { $0 } }

    // MARK: Figures

    /// What has been written so far.
    public var progress: RecordingProgress {
        let figures = branch?.progress ?? (0, 0, .zero)
        return RecordingProgress(duration: figures.duration, frames: figures.frames, droppedFrames: figures.dropped,
                                 bytes: bytesWritten(), paused: state.withLock { $0.paused })
    }

    /// Every file written so far, in order.
    public var files: [String] {
        guard let segmentPattern else { return [path] }
        var names: [String] = []
        for index in 1... {
            let name = VideoSegmentNames.name(segmentPattern, index)
            guard access(name, F_OK) == 0 else { break }
            names.append(name)
        }
        return names
    }

    private func bytesWritten() -> Int64 {
        files.reduce(0) { total, file in
            var info = stat()
            return total + (stat(file, &info) == 0 ? Int64(info.st_size) : 0)
        }
    }

    // MARK: Events

    /// started, then stopped or failed. Each call makes a new stream; it ends with the recording.
    public func events() -> AsyncStream<RecordingEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: RecordingEvent.self)
        let replay: [RecordingEvent]? = state.withLock { state in
            var past: [RecordingEvent] = state.started ? [.started(path: state.location.path)] : []
            if case .ended(_, let event) = state.phase {
                past.append(event)
                return past
            }
            state.nextObserver += 1
            state.observers[state.nextObserver] = continuation
            for event in past { continuation.yield(event) }
            return nil
        }
        if let replay {
            for event in replay { continuation.yield(event) }
            continuation.finish()
        }
        return stream
    }

    private func publish(_ event: RecordingEvent, finishing: Bool = false) {
        let observers = state.withLock { state in
            defer { if finishing { state.observers = [:] } }
            return Array(state.observers.values)
        }
        for observer in observers {
            observer.yield(event)
            if finishing { observer.finish() }
        }
        notifySession(event)
    }

    // MARK: Branch callbacks

    /// The first frame is in the file.
    func branchStarted() {
        state.withLock { $0.started = true }
        firstFrame.succeed(())
        publish(.started(path: path))
    }

    /// The writer finished the file: after `stop()` (which then ends the recording itself), or by itself at the
    /// asked duration — then the branch is removed here, off the bus thread.
    func branchEnded() {
        BlockingThread.start(named: "gstcam-record-end") { [self] in
            guard endedResult == nil, let branch else { return }
            branch.remove()
            end(with: branch.failure.map { .failure($0) } ?? .success(summary()))
        }
    }

    /// Waits until the recording has ended (its duration reached, `stop()`, or a failure) and returns how.
    public func finished() async -> Result<RecordedVideo, CameraError> {
        do {
            return .success(try await ending.value(timeout: .seconds(366 * 86_400), what: "The end of the recording"))
        } catch {
            return .failure(error as? CameraError ?? .recordingFailed(path: path, detail: "\(error)"))
        }
    }

    /// How the recording ended, once it has.
    public var result: Result<RecordedVideo, CameraError>? { endedResult }

    /// What the file holds after a failure (or the finished video), once the recording has ended.
    public var lastFigures: RecordedVideo? {
        state.withLock { state in
            switch state.phase {
            case .ended(_, .failed(_, let video)), .ended(_, .stopped(let video)): return video
            default: return nil
            }
        }
    }

    /// The branch failed by itself: the branch is removed (off the streaming thread) and the file closed.
    func branchFailed(_ error: CameraError) {
        firstFrame.fail(error)
        BlockingThread.start(named: "gstcam-record-end") { [self] in
            branch?.remove()
            end(with: .failure(error))
        }
    }

    // MARK: Control

    /// Waits for the first frame to be written; throws why it was not.
    func waitForFirstFrame(timeout: Duration) async throws {
        try await firstFrame.value(timeout: timeout, what: "The first recorded frame")
    }

    /// Armed with a pre-roll and not begun yet: video (and sound) are kept in memory, no file exists.
    public var isArmed: Bool { branch.map { !$0.hasBegun } ?? false }

    /// Starts writing a recording armed with a pre-roll (`RecordingSettings.preRoll`): the file begins with the
    /// video kept in memory, from the keyframe at least that long ago; returns once that is in the file.
    /// `path` names the file only now (a gallery name with the time of the start, not of the arming); a name
    /// without an extension gets the codec's, and an existing file is an error.
    public func begin(into path: String? = nil, timeout: Duration = .seconds(10)) async throws {
        if let path, let branch, !branch.hasBegun {
            let file = CameraSession.videoPath(path, container: codec.container)
            let pattern = segmentPattern.map { _ in VideoSegmentNames.pattern(for: file) }
            let first = pattern.map { VideoSegmentNames.name($0, 1) } ?? file
            try CameraSession.checkVideoOutput(first, overwrite: false)
            try branch.rename(location: pattern ?? file, path: first)
            state.withLock { $0.location = (first, pattern) }
        }
        try branch?.begin()
        try await waitForFirstFrame(timeout: timeout)
    }

    /// Stops taking frames until `resume()`; the file has no gap (time goes on from the last frame).
    public func pause() {
        state.withLock { $0.paused = true }
        branch?.setPaused(true)
    }

    public func resume() {
        state.withLock { $0.paused = false }
        branch?.setPaused(false)
    }

    /// Finishes the file (the writer gets EOS: the MP4 gets its index, the WebM its cues) and returns what was
    /// recorded. A recording that failed meanwhile throws its failure (its file plays up to then).
    @discardableResult
    public func stop() async throws -> RecordedVideo {
        if let result = endedResult { return try result.get() }
        guard let branch else { throw CameraError.notRunning(state: "not recording") }
        // Not confirmed in time (a stuck writer): the file still plays up to its last fragment.
        _ = await branch.finish(timeout: .seconds(5))
        if branch.failure != nil {
            return try await ending.value(timeout: .seconds(5), what: "The end of the failed recording")
        }
        branch.remove()
        return try end(with: .success(summary())).get()
    }

    /// For the session's own stop: finishes the file within `timeout`, blocking.
    func finishForSessionEnd(timeout: Duration) {
        guard endedResult == nil, let branch else { return }
        _ = branch.finishBlocking(timeout: timeout)
        branch.remove()
        end(with: branch.failure.map { .failure($0) } ?? .success(summary()))
    }

    private var endedResult: Result<RecordedVideo, CameraError>? {
        state.withLock { state in
            if case .ended(let result, _) = state.phase { return result }
            return nil
        }
    }

    func summary() -> RecordedVideo {
        let figures = branch?.finalFigures ?? (0, 0, .zero)
        let files = files
        return RecordedVideo(path: files.first ?? path, files: files, duration: figures.duration, frames: figures.frames,
                             droppedFrames: figures.dropped, width: width, height: height, codec: codec, encoder: encoder,
                             bytes: bytesWritten())
    }

    /// Records the end once; later calls return the first result.
    @discardableResult
    private func end(with result: Result<RecordedVideo, CameraError>) -> Result<RecordedVideo, CameraError> {
        let event: RecordingEvent
        switch result {
        case .success(let video): event = .stopped(video)
        case .failure(let error): event = .failed(error, summary())
        }
        let first: Bool = state.withLock { state in
            guard case .recording = state.phase else { return false }
            state.phase = .ended(result, event)
            return true
        }
        guard first else { return endedResult ?? result }
        detach()
        switch result {
        case .success(let video): ending.succeed(video)
        case .failure(let error): ending.fail(error)
        }
        publish(event, finishing: true)
        return result
    }
}

/// A recording's figures while it runs.
public struct RecordingProgress: Sendable, Equatable {
    /// Video time written (pauses excluded).
    public let duration: Duration
    public let frames: Int
    /// Frames the encoder could not keep up with (so far, roughly; exact in `RecordedVideo`).
    public let droppedFrames: Int
    public let bytes: Int64
    public let paused: Bool
}
