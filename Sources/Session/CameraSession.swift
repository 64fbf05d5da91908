import CGStreamer
import Dispatch
import LinuxSystem
import Synchronization
import CameraErrors
import Cameras
import Controls
import GStreamer
import MediaFiles
import PipelineFiles
import V4L2

/// A camera session: owns one GStreamer pipeline built from a pipeline file, publishes its preview frames,
/// takes photos from it while it runs, and always brings it back to NULL (releasing the device).
///
/// Life: `idle` → `start()` → `starting` → (first frame) `running` → `stop()` → `stopped`; any failure
/// ends in `failed(error)` with the pipeline already NULL. `stop()` before or while starting cancels the start (`start()`
/// throws `CancellationError`). A running camera that fails — unplugged, its driver failing, no frame for
/// `CameraConfiguration.stallTimeout` — ends the session in `failed` at once, with the camera released.
public final class CameraSession: Sendable {
    public let configuration: CameraConfiguration

    /// The parsed file, checked when the session is made so a broken file fails before any device work.
    let pipelineFile: PipelineFile
    /// Whether the pipeline file opens a camera device (`${device}`), as opposed to e.g. the test pattern. Kept,
    /// not looked up: the stall watch asks on every look, ten times a second, and finding the placeholders
    /// scans the whole description: more than half of the bus thread's time in an 8 s preview (issue 13).
    let pipelineUsesDevice: Bool
    /// Whether it names the camera's format (`${format}`), which without a chosen mode takes a list to spell.
    let pipelineUsesFormat: Bool
    /// The photo branch for each format (pipelines/photo-jpeg.branch, photo-png.branch).
    let photoBranchFiles: [PhotoFormat: PipelineFile]
    /// The branch that makes photos of the camera's own JPEGs (pipelines/photo-camera-jpeg.branch), for
    /// pipelines with a `camera-jpeg` tee; without the file, JPEG photos are always encoded from the frames.
    private let cameraJPEGBranchFile: PipelineFile?
    /// pipelines/photo-stamp.branch when photos are stamped (`configuration.photoStamp`).
    private let photoStampFile: PipelineFile?
    private let displayBranchFile: PipelineFile?
    /// pipelines/preview.branch, for pipeline files without a `preview` appsink of their own, added when
    /// `frames()` is first read (CameraSession+Preview.swift); nil when the configuration wants no preview frames.
    let previewBranchFile: PipelineFile?
    /// The camera as the command probed it to choose the mode (`ModeChoice.camera`), used instead of probing it
    /// again when the pipeline is first built for that same device (`Shared.probeIsFresh`).
    let probedCamera: Camera?

    /// What exists only while a pipeline does.
    struct Pipeline: Sendable {
        let pipeline: Element
        let tee: Element
        /// Every branch at the tee is added and removed through it (photo, window, and those added while running).
        let branches: TeeBranches
        /// The pipeline's own sound (a tee named `sound`, as in av-test.pipeline): recordings with sound take it
        /// from there instead of a sound card.
        let sound: TeeBranches?
        /// The window branch's bin, when the session shows a window: its elements' errors are the window's.
        let window: Element?
        let bus: Bus
        /// The camera streaming now (it changes when the session switches cameras).
        var device: String?
        /// Its card name (VIDIOC_QUERYCAP), for photo metadata.
        var cameraName: String?
        /// Who made it, where it says (CameraManufacturer), for photo metadata.
        var manufacturer: String?
        /// The live `source` element's address: errors from a `source` that is neither this one nor a switch's
        /// candidate come from one already replaced.
        var sourceOrigin: UInt
        /// The photo branches, kept linked at the tee.
        let shutter: PhotoShutter
    }

    /// Where the session is in its life, each case holding what exists only then: a pipeline only while starting
    /// or running, the wait for the first frame only while starting, the stall watch's figures and a camera
    /// switch only while running — so none of it can outlive its phase or exist in the wrong one.
    enum Phase {
        case idle
        /// `start()` runs; `pipeline` once it is built. The first frame fulfils `firstFrame`.
        case starting(firstFrame: OneShot<Void>, pipeline: Pipeline?)
        case running(Running)
        case stopped
        case failed(CameraError)
    }

    /// A running session's pipeline and what is watched while it runs.
    struct Running {
        var pipeline: Pipeline
        /// When the newest preview frame arrived (the stall watch measures from it).
        var lastFrame: ContinuousClock.Instant
        /// The whole seconds of silence last reported as `framesStalled`; nil while frames flow.
        var stalledSeconds: Int?
        /// When the stall watch last asked the device whether it is still there.
        var lastPresenceCheck: ContinuousClock.Instant?
        /// Set while the source is being replaced: errors of the new source end the switch, not the session.
        var sourceSwitch: SourceSwitch?
    }

    struct Shared {
        var phase = Phase.idle
        var frames = FrameTally()
        /// The numbers of the frames counted lately, by timestamp, for the preview frames that reach the appsink.
        var recentFrameNumbers = RecentFrameNumbers()
        /// Preview frames that went through the preview branch (its conversion) to the appsink.
        var convertedFrames = 0
        /// Where preview frames come from: the pipeline file's own appsink, or pipelines/preview.branch once wanted.
        var previewBranch = PreviewBranchState.notAttached
        var nextObserverID = 0
        var frameObservers: [Int: AsyncStream<Frame>.Continuation] = [:]
        var frameNumberObservers: [Int: AsyncStream<Int>.Continuation] = [:]
        var eventObservers: [Int: AsyncStream<CameraEvent>.Continuation] = [:]
        /// The zoom asked for; applied when the pipeline starts and whenever it changes.
        var zoom = Zoom.none
        /// Called with the window branch once it is in the pipeline (the camera screen's input and overlays).
        var displayBranchAdded: (@Sendable (Element) -> Void)?
        /// Takes errors of the window branch's elements (named display…), e.g. "Output window was closed".
        var displayBranchFailed: (@Sendable (String) -> Void)?
        /// The recording in progress (CameraSession+Recording.swift).
        var recording: Recording?
        /// Whether `probedCamera` may stand for the camera: at the first start only. A start after the camera went
        /// away (the camera screen starts its session again) probes it anew, its permission and modes as they are now.
        var probeIsFresh = true

        /// Whether the probe is fresh, for the build now; later builds probe the camera again.
        mutating func takeFreshProbe() -> Bool {
            defer { probeIsFresh = false }
            return probeIsFresh
        }

        var state: CameraState {
            switch phase {
            case .idle: .idle
            case .starting: .starting
            case .running: .running
            case .stopped: .stopped
            case let .failed(error): .failed(error)
            }
        }

        /// The pipeline while starting (once built) or running.
        var pipeline: Pipeline? {
            switch phase {
            case let .starting(_, pipeline): pipeline
            case let .running(running): running.pipeline
            default: nil
            }
        }

        var running: Running? {
            if case let .running(running) = phase { return running }
            return nil
        }

        /// Changes what a running session holds; nothing happens in another phase (the change came too late).
        mutating func updateRunning(_ change: (inout Running) -> Void) {
            guard case var .running(running) = phase else { return }
            change(&running)
            phase = .running(running)
        }
    }

    /// Photos and camera switches take turns: a switch waits for the photo being taken.
    let operations = TurnTaking()

    let shared = Mutex(Shared())

    /// The controls' values before this session changed them, put back when it ends.
    let controlRestorer = ControlRestorer()

    /// Loads the pipeline file (and the branch files the session adds at run time) without touching a device.
    /// `camera`: the camera as probed to choose the mode (`ModeChoice.camera`), so starting does not probe it again.
    public init(configuration: CameraConfiguration = CameraConfiguration(), camera: Camera? = nil) throws {
        self.configuration = configuration
        probedCamera = camera
        pipelineFile = try PipelineFile.load(configuration.pipeline)
        pipelineUsesDevice = pipelineFile.placeholders.contains("device")
        pipelineUsesFormat = pipelineFile.placeholders.contains("format")
        photoBranchFiles = try Dictionary(uniqueKeysWithValues: PhotoFormat.allCases.map {
            ($0, try PipelineFile.load("photo-\($0.rawValue).branch"))
        })
        cameraJPEGBranchFile = try? PipelineFile.load("photo-camera-jpeg.branch")
        photoStampFile = try configuration.photoStamp.map { _ in try PipelineFile.load("photo-stamp.branch") }
        displayBranchFile = try configuration.displaySink.map { _ in try PipelineFile.load("display.branch") }
        previewBranchFile = configuration.previewFrames ? try PipelineFile.load("preview.branch") : nil
        let known: Set = ["device", "width", "height", "framerate", "format", "samples_per_frame"]
        if let unknown = pipelineFile.placeholders.first(where: { !known.contains($0) }) {
            throw CameraError.unknownPipelineParameter(file: pipelineFile.path, name: unknown)
        }
    }

    deinit {
        let pipeline = shared.withLock { shared in
            defer { shared.phase = .stopped }
            return shared.pipeline
        }
        pipeline?.pipeline.setState(GST_STATE_NULL)
        pipeline?.bus.postWakeUp(Self.busStopMessage)
    }

    // MARK: State

    public var state: CameraState { shared.withLock { $0.state } }

    /// Preview frames delivered so far.
    public var frameCount: Int { shared.withLock { $0.frames.count } }

    /// Preview frames delivered so far and the newest one's timestamp, read together (for a frame rate).
    public var frameTally: FrameTally { shared.withLock { $0.frames } }

    /// The V4L2 device the running pipeline opened, if it has one.
    public var device: String? { shared.withLock { $0.pipeline?.device } }

    /// The name of the camera streaming now (its card name), nil without a device.
    public var cameraName: String? { shared.withLock { $0.pipeline?.cameraName } }

    /// Who draws into the window branch (the camera screen): `added` gets the branch once it is in the pipeline
    /// (call before `start()`), `failed` the window's errors, e.g. "Output window was closed", which then do not
    /// end the session.
    public func observeWindowBranch(added: @escaping @Sendable (Element) -> Void, failed: @escaping @Sendable (String) -> Void) {
        shared.withLock { shared in
            shared.displayBranchAdded = added
            shared.displayBranchFailed = failed
        }
    }

    /// Whether the newest frame from the camera is held now (for a photo without shutter lag): then
    /// `copyOfNewestFrame()` has a frame to copy, e.g. for a window whose camera stopped sending frames.
    package var holdsNewestFrame: Bool { shared.withLock { $0.pipeline?.shutter }?.holdsNewestFrame ?? false }

    /// A deep copy of the newest frame the camera sent (after digital zoom, as the window branch gets it), nil
    /// when none is held; the caller owns the buffer.
    package func copyOfNewestFrame() -> UnsafeMutablePointer<GstBuffer>? {
        shared.withLock { $0.pipeline?.shutter }?.copyOfNewestFrame()
    }

    /// The pipeline file in use.
    public var pipelinePath: String { pipelineFile.path }

    /// Preview frames with latest-frame semantics: a slow reader gets the newest frame, never a backlog.
    /// Each call makes a new stream; it ends when the session stops or fails, and at once when the
    /// configuration asked for no preview frames (`CameraConfiguration.previewFrames`) or the preview branch could
    /// not be linked (a warning event says why). The first read links the preview branch (CameraSession+Preview.swift).
    public func frames() -> AsyncStream<Frame> {
        let (stream, continuation) = AsyncStream.makeStream(of: Frame.self, bufferingPolicy: .bufferingNewest(1))
        guard configuration.previewFrames else {
            continuation.finish()
            return stream
        }
        register(continuation, in: \.frameObservers)
        attachPreviewBranchIfWanted()
        return stream
    }

    /// The number of each preview frame as it arrives (as `frameCount` counts them), without the frame: for
    /// waiting on frames (e.g. exposure settling before a photo) without converting them as `frames()` does.
    /// Each call makes a new stream; it ends when the session stops or fails.
    public func frameNumbers() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        register(continuation, in: \.frameNumberObservers)
        return stream
    }

    /// State changes, warnings and saved photos, in order.
    public func events() -> AsyncStream<CameraEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: CameraEvent.self)
        register(continuation, in: \.eventObservers)
        return stream
    }

    private func register<Element>(_ continuation: AsyncStream<Element>.Continuation,
                                   in observers: WritableKeyPath<Shared, [Int: AsyncStream<Element>.Continuation]>) {
        let id: Int? = shared.withLock { shared in
            switch shared.state {
            case .stopped, .failed: return nil
            default:
                shared.nextObserverID += 1
                shared[keyPath: observers][shared.nextObserverID] = continuation
                return shared.nextObserverID
            }
        }
        guard let id else { continuation.finish(); return }
        continuation.onTermination = { [weak self] _ in
            // Ids are unique across both kinds of observer.
            self?.shared.withLock { shared in
                shared.frameObservers[id] = nil
                shared.frameNumberObservers[id] = nil
                shared.eventObservers[id] = nil
            }
        }
    }

    // MARK: Start and stop

    /// Builds and starts the pipeline; returns once the first frame has arrived. Throws the CameraError that
    /// explains a failure (the session is then `failed`).
    /// `stop()` during the start cancels it: `start()` then throws `CancellationError` and the session is `stopped`.
    public func start() async throws {
        let firstFrame: OneShot<Void> = try shared.withLock { shared in
            // stop() before start() began cancels it as much as a stop() during it does.
            if case .stopped = shared.phase { throw CancellationError() }
            guard case .idle = shared.phase else {
                throw CameraError.stateChangeFailed(to: "PLAYING", detail: "the session was already started (it is \(shared.state))")
            }
            let firstFrame = OneShot<Void>()
            shared.phase = .starting(firstFrame: firstFrame, pipeline: nil)
            return firstFrame
        }
        notify(.stateChanged(.starting))
        var built: Pipeline?
        do {
            let pipeline = try buildPipeline()
            built = pipeline
            try keepStarting(pipeline)
            _ = try applyConfiguredControls(device: pipeline.device)
            startBusThread(pipeline)
            if pipeline.pipeline.setState(GST_STATE_PLAYING) == .failure {
                // The bus usually says why; give it a moment to arrive before reporting a bare failure.
                _ = try? await firstFrame.value(timeout: .milliseconds(500), what: "")
                try keepStarting()
                throw CameraError.stateChangeFailed(to: "PLAYING", detail: "GStreamer refused the state change")
            }
            try keepStarting()
            let zoom = try applyZoom(shared.withLock { $0.zoom }, to: pipeline)
            shared.withLock { $0.zoom = zoom }
            let what = "The first frame from \(pipeline.device ?? pipelineFile.path)"
            try await firstFrame.value(timeout: configuration.startTimeout, what: what)
            try becomeRunning()
        } catch {
            if case .stopped = state {
                // stop() came first and has released whatever pipeline it found; one it could not see yet (made,
                // or set to PLAYING, after it ran) is brought back to NULL here.
                if let built { _ = Self.bringToNull(built, within: Self.stopDeadline) }
                throw CancellationError()
            }
            let failure = error as? CameraError ?? .streamingFailed(source: pipelineFile.path, detail: "\(error)")
            tearDown(ending: .failed(failure))
            throw failure
        }
    }

    /// Stores the pipeline being started, unless `stop()` came meanwhile (then `CancellationError`).
    private func keepStarting(_ pipeline: Pipeline? = nil) throws {
        try shared.withLock { shared in
            guard case let .starting(firstFrame, _) = shared.phase else { throw CancellationError() }
            if let pipeline { shared.phase = .starting(firstFrame: firstFrame, pipeline: pipeline) }
        }
    }

    /// `starting` → `running` once the first frame is in, unless `stop()` or a failure came meanwhile.
    private func becomeRunning() throws {
        try shared.withLock { shared in
            guard case let .starting(_, pipeline?) = shared.phase else { throw CancellationError() }
            shared.phase = .running(Running(pipeline: pipeline, lastFrame: .now))
        }
        notify(.stateChanged(.running))
        attachPreviewBranchIfWanted()
    }

    /// Stops the pipeline (state NULL, device released) and ends the frame and event streams. Safe to call
    /// in any state, more than once; during `start()` it cancels the start. Returns within about
    /// `stopDeadline` even when a driver does not let go (the pipeline then reaches NULL in the background).
    public func stop() {
        tearDown(ending: .stopped)
    }

    /// How long stopping waits for the pipeline to reach NULL.
    static let stopDeadline: Duration = .seconds(3)

    /// Brings the pipeline to NULL (which releases the camera) on a thread of its own and waits at most
    /// `deadline`: a driver stuck in an ioctl must not hang the caller. Returns whether NULL was reached in time.
    static func bringToNull(_ pipeline: Pipeline, within deadline: Duration) -> Bool {
        let done = DispatchSemaphore(value: 0)
        BlockingThread.start(named: "gstcam-stop") {
            pipeline.pipeline.setState(GST_STATE_NULL)
            done.signal()
        }
        return done.wait(timeout: .now() + .nanoseconds(Int(deadline.inSeconds * 1e9))) == .success
    }

    /// The pipeline of a running session. A session that failed throws its failure (what a caller should report),
    /// otherwise `notRunning`.
    func runningPipeline() throws -> Pipeline {
        try shared.withLock { shared in
            switch shared.phase {
            case let .failed(failure): throw failure
            case let .running(running): return running.pipeline
            default: throw CameraError.notRunning(state: shared.state.description)
            }
        }
    }

    /// The camera `selector` names (see `CameraDiscovery.camera(matching:)`), if this user can use it: a missing,
    /// forbidden or non-capture device is reported as such before GStreamer tries it.
    static func usableCamera(_ selector: String?) throws -> Camera {
        try usable(CameraDiscovery.camera(matching: selector))
    }

    /// `camera`, if this user can use it (else its problem is thrown).
    static func usable(_ camera: Camera) throws -> Camera {
        if let problem = camera.problem { throw problem }
        return camera
    }


    /// The pipeline file parsed with the session's parameters for `device`.
    func parsePipeline(device: String?) throws -> Element {
        var parameters = [
            "device": device ?? "",
            "width": "\(configuration.width)",
            "height": "\(configuration.height)",
            "framerate": configuration.framerate.fraction,
            "samples_per_frame": "\(Self.soundSamplesPerFrame(framesPerSecond: configuration.framerate.value))",
        ]
        if pipelineUsesFormat { parameters["format"] = Self.formatParameter(configuration.pixelFormat) }
        let pipeline = try PipelineParser.parsePipeline(try pipelineFile.description(with: parameters), file: pipelineFile.path)
        pinSourceFormat(in: pipeline)
        return pipeline
    }

    /// `${format}`: the GStreamer name of the chosen mode's raw format ("YUY2"), else every raw format there is
    /// (what "no format" allowed; a configuration made without `choosingMode` has none, nor has a camera format
    /// v4l2src names but gstcam does not).
    static func formatParameter(_ format: PixelFormat?) -> String {
        format?.rawCapsFormat ?? VideoFormat.anyRawCapsList
    }

    /// The chosen mode's format added to `source-caps` when its caps are one raw structure that names none (a
    /// pipeline file of the user's that does not use `${format}`).
    private func pinSourceFormat(in pipeline: Element) {
        guard let format = configuration.pixelFormat?.rawCapsFormat, let sourceCaps = pipeline.child(named: "source-caps"),
              let caps = sourceCaps.caps("caps"), caps.hasPrefix("video/x-raw"), !caps.contains(";" as Character), !caps.containsText("format=")
        else { return }
        sourceCaps.setCaps("caps", "\(caps), format=\(format)")
    }

    /// 48 kHz sound samples in one frame (rounded): a pipeline that draws its picture from its sound
    /// (pipelines/av-test.pipeline) sizes its sound buffers to one frame each.
    static func soundSamplesPerFrame(framesPerSecond: Double) -> Int {
        max(1, Int((48_000 / max(framesPerSecond, 0.001)).rounded()))
    }

    /// Puts pipelines/orientation.stage between the tee and the element feeding it, before the pipeline plays.
    private func turnPicture(before tee: Element, in pipeline: Element, file: String) throws {
        let stageFile = try PipelineFile.load("orientation.stage")
        let stage = try PipelineParser.parseBin(try stageFile.description(with: ["direction": configuration.orientation.videoDirection]),
                                                file: stageFile.path)
        guard let teeInput = tee.staticPad("sink"), let feeding = teeInput.peer,
              let stageInput = stage.staticPad("sink"), let stageOutput = stage.staticPad("src") else {
            throw CameraError.badPipelineFile(file: file, detail: "the tee \"split\" must be fed by one element for the picture to be turned")
        }
        guard feeding.unlink(from: teeInput), pipeline.add(stage),
              feeding.link(to: stageInput) == .ok, stageOutput.link(to: teeInput) == .ok else {
            throw CameraError.negotiationFailed(device: nil, detail: "\(stageFile.path) could not be put in front of the tee of \(file)")
        }
    }

    private func buildPipeline() throws -> Pipeline {
        let camera: Camera?
        if !pipelineUsesDevice {
            camera = nil
        } else if let probedCamera, probedCamera.path == configuration.device, shared.withLock({ $0.takeFreshProbe() }) {
            camera = try Self.usable(probedCamera)
        } else {
            camera = try Self.usableCamera(configuration.device)
        }
        if let camera { try configuration.checkOffered(by: camera, file: pipelineFile) }
        let device = camera?.path
        let file = pipelineFile.path
        let pipeline = try parsePipeline(device: device)
        // Whatever happens below, a pipeline that was made is brought back to NULL.
        var built = false
        defer { if !built { pipeline.setState(GST_STATE_NULL) } }
        for (name, purpose) in Self.requiredElements where pipeline.child(named: name) == nil {
            throw CameraError.missingPipelineElement(file: file, name: name, purpose: purpose)
        }
        let tee = pipeline.child(named: "split")!
        try PipelineContract.checkSplit(tee, file: file)
        if !configuration.orientation.isNormal { try turnPicture(before: tee, in: pipeline, file: file) }
        // The camera's format reaches the tee unchanged (the zoom stage keeps it), so branches are parsed for it.
        let branches = TeeBranches(pipeline: pipeline, tee: tee, expectedFormat: configuration.pixelFormat?.rawCapsFormat)
        let sourceIsLive = pipeline.child(named: "source")?.isLiveSource
        if sourceIsLive != true { try Self.paceByClock(pipeline: pipeline, tee: tee, file: file, sourceIsLive: sourceIsLive) }
        try attachOwnPreview(pipeline: pipeline, tee: tee, file: file)
        var window: Element?
        if let sink = configuration.displaySink, let branchFile = displayBranchFile {
            window = try addDisplayBranch(sink: sink, file: branchFile, branches: branches)
            if sourceIsLive == true { Self.showFramesAsTheyArrive(in: window?.child(named: Self.windowSinkName)) }
        }
        guard let bus = pipeline.bus else {
            throw CameraError.stateChangeFailed(to: "PLAYING", detail: "the pipeline has no bus")
        }
        let cameraJPEG = pipeline.child(named: "camera-jpeg").flatMap { tee in
            cameraJPEGBranchFile.map {
                PhotoShutter.CameraJPEG(tee: tee, branches: TeeBranches(pipeline: pipeline, tee: tee), file: $0)
            }
        }
        let shutter = PhotoShutter(pipeline: pipeline, tee: tee, branches: branches, files: photoBranchFiles,
                                   jpegQuality: configuration.jpegQuality, cameraJPEG: cameraJPEG,
                                   stamp: photoStampFile.map { ($0, configuration.photoStamp ?? "") },
                                   turned: !configuration.orientation.isNormal)
        countFramesAtTee(tee)
        built = true
        let sound = pipeline.child(named: "sound").map { TeeBranches(pipeline: pipeline, tee: $0) }
        return Pipeline(pipeline: pipeline, tee: tee, branches: branches, sound: sound, window: window, bus: bus, device: device, cameraName: camera?.name,
                        manufacturer: device.flatMap { CameraManufacturer.of(device: $0) },
                        sourceOrigin: UInt(bitPattern: pipeline.child(named: "source")!.pointer), shutter: shutter)
    }

    static let requiredElements: [(String, String)] = [
        ("source", "the camera source"),
        ("zoom", "the videocrop that does digital zoom"),
        ("split", "the tee that feeds the preview and the photo branch"),
    ]

    /// The element display.branch ends in (`${sink}`; pipelines/README.md).
    static let windowSinkName = "display"

    private func addDisplayBranch(sink: String, file: PipelineFile, branches: TeeBranches) throws -> Element {
        guard sink.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw CameraError.badPipelineFile(file: file.path, detail: "\"\(sink)\" is not an element factory name")
        }
        let bin = try PipelineParser.parseBin(try file.description(with: ["sink": sink]), file: file.path,
                                              inputCaps: branches.inputCaps)
        // Overlays such as textoverlay have an unlinked text pad, which GStreamer may ghost instead of the
        // branch's first pad: an element named display-input marks where the branch starts.
        if let start = bin.child(named: "display-input")?.staticPad("sink"), let ghost = bin.staticPad("sink") {
            gstcam_ghost_pad_set_target(ghost.pointer, start.pointer)
        }
        guard let input = bin.staticPad("sink"), (try? branches.attach(bin, input: input)) != nil else {
            throw CameraError.badPipelineFile(file: file.path, detail: "the window branch could not be linked to the tee")
        }
        shared.withLock { $0.displayBranchAdded }?(bin)
        return bin
    }

    /// Ends the session: `.stopped` (on request) or `.failed` (a failure). A failure already recorded stays (a
    /// later stop or failure does not hide it). A `start()` waiting for its first frame is woken: cancelled by a
    /// stop, failed by a failure.
    func tearDown(ending final: CameraState) {
        let (pipeline, firstFrame, frameObservers, eventObservers, numberObservers) = shared.withLock { shared in
            let pipeline = shared.pipeline
            var firstFrame: OneShot<Void>?
            if case let .starting(waiting, _) = shared.phase { firstFrame = waiting }
            switch (shared.phase, final) {
            case (.failed, _): break
            case (_, .failed(let error)): shared.phase = .failed(error)
            default: shared.phase = .stopped
            }
            let result = (pipeline, firstFrame, shared.frameObservers, shared.eventObservers, shared.frameNumberObservers)
            shared.frameObservers = [:]
            shared.eventObservers = [:]
            shared.frameNumberObservers = [:]
            return result
        }
        if case .failed(let failure) = final { firstFrame?.fail(failure) } else { firstFrame?.fail(CancellationError()) }
        // A recording is finished first (its file gets its index) while the pipeline still plays.
        if let recording = shared.withLock({ $0.recording }), pipeline != nil {
            recording.finishForSessionEnd(timeout: .seconds(2))
        }
        // The photo branches let go of the frame they hold first, so the camera's buffers can all be freed. Photos
        // being taken end with the session's failure, if it failed: that is what their callers should report.
        if case .failed(let failure) = final {
            pipeline?.shutter.abort(failure)
        } else {
            pipeline?.shutter.abort(CameraError.notRunning(state: final.description))
        }
        var stuck = false
        if let pipeline {
            pipeline.bus.postWakeUp(Self.busStopMessage)
            stuck = !Self.bringToNull(pipeline, within: Self.stopDeadline)
        }
        controlRestorer.restoreAll()
        for observer in eventObservers.values {
            if stuck, let pipeline {
                observer.yield(.warning("\(pipeline.device ?? pipelineFile.path) did not stop within "
                    + "\(CameraError.seconds(Self.stopDeadline.inSeconds)); it is released when its driver lets go"))
            }
            observer.yield(.stateChanged(final))
            observer.finish()
        }
        for observer in frameObservers.values { observer.finish() }
        for observer in numberObservers.values { observer.finish() }
    }

    func notify(_ event: CameraEvent) {
        let observers = shared.withLock { Array($0.eventObservers.values) }
        for observer in observers { observer.yield(event) }
    }

    // MARK: Bus

    private static let busStopMessage = "gstcam-stop"

    private func startBusThread(_ built: Pipeline) {
        let bus = built.bus
        let device = built.device
        let window = built.window
        BlockingThread.start(named: "gstcam-bus") { [weak self] in
            // The wait for the next message ends by the time the stall watch wants to look again.
            var wait = Self.idleLookInterval
            while true {
                let message = bus.pop(timeout: GstClockTime(wait.inNanoseconds), scopes: window.map { [$0] } ?? [])
                if case .application(Self.busStopMessage)? = message { return }
                if let message { self?.handle(message, device: device) }
                wait = self?.watchForStall() ?? Self.idleLookInterval
            }
        }
    }

    private func handle(_ message: BusMessage, device: String?) {
        if let branch = shared.withLock({ $0.recording })?.branch, branch.handle(message) { return }
        switch message {
        // An element of the window branch (the sink, or autovideosink's or glimagesink's inner sink), e.g. "Output
        // window was closed": the window's owner decides (the camera screen ends), the camera is fine.
        case .error(let error) where error.scope == 0 && shared.withLock({ $0.displayBranchFailed }) != nil:
            shared.withLock { $0.displayBranchFailed }?(error.message)
        case .error(let error):
            // A source a camera switch already removed may still report; the switch has dealt with it.
            if error.fromDetachedElement { return }
            let (sourceSwitch, live) = shared.withLock { ($0.running?.sourceSwitch, $0.pipeline) }
            if let sourceSwitch, error.origin == sourceSwitch.origin {
                sourceSwitch.started.fail(CameraError.fromBus(error, device: sourceSwitch.target))
            } else if error.source == "source", let live, error.origin != live.sourceOrigin {
                return  // a replaced source's late word (a failed candidate reports twice)
            } else {
                fail(CameraError.fromBus(error, device: live?.device ?? device))
            }
        case .endOfStream:
            let live = shared.withLock { $0.pipeline?.device } ?? device
            fail(live.flatMap(CameraError.lost) ?? .streamingFailed(
                source: live ?? pipelineFile.path, detail: "the source stopped sending frames (end of stream)"))
        case let .warning(_, text):
            notify(.warning(text))
        default:
            break
        }
    }

    /// A failure while starting ends `start()` with it; while running it stops the session.
    func fail(_ error: CameraError) {
        let phase = shared.withLock { $0.phase }
        switch phase {
        case let .starting(firstFrame, _): firstFrame.fail(error)
        case .running: tearDown(ending: .failed(error))
        default: break
        }
    }

    // MARK: Photos

    /// Takes a photo from the running pipeline and writes it to `path` as a JPEG. The folder and the name are
    /// checked before the pipeline is touched; the file appears whole (temporary name, then rename) and an
    /// existing file is replaced only with `overwrite`. The preview keeps flowing meanwhile.
    /// The format is `format`, else the one the file name's extension names, else JPEG. With `flash`, the
    /// camera's flash LED fires for the photo (`flashUnavailable` on cameras without one).
    public func capturePhoto(to path: String, format: PhotoFormat? = nil, overwrite: Bool = false,
                             flash: Bool = false) async throws -> Photo {
        try await capturePhoto(to: path, format: format ?? PhotoFormat(path: path) ?? .jpeg,
                               collision: PhotoNameCollision(overwrite: overwrite), flash: flash)
    }

    /// Takes a photo into `library` (the Pictures folder by default) under a new `IMG_<date>_<time>.jpg` name.
    public func capturePhoto(into library: PhotoLibrary, format: PhotoFormat = .jpeg, flash: Bool = false) async throws -> Photo {
        try library.createDirectory()
        return try await capturePhoto(to: library.newPhotoPath(format: format), format: format, collision: .addSuffix, flash: flash)
    }

    func capturePhoto(to path: String, format: PhotoFormat, collision: PhotoNameCollision, flash: Bool = false) async throws -> Photo {
        let started = ContinuousClock.now
        _ = try runningPipeline()
        await operations.begin()
        defer { operations.end() }
        // Read after our turn came: a camera switch we waited for has changed the camera (and its name).
        let pipeline = try runningPipeline()
        let flashControls = try flash ? flashReadyControls() : nil
        let output = try PhotoOutput(finalPath: path, collision: collision, format: format)
        do {
            let tags = pipeline.photoTags(zoom: zoom)
            let image = try await pipeline.shutter.branch(for: format, unchangedPixels: zoom.keepsCameraPixels)
                .takeImage(tags: tags, timeout: configuration.photoTimeout, what: "A frame for the photo",
                           beforeFrame: flashControls.map { controls in { try controls.strobe() } })
            let size = (width: image.width, height: image.height)
            let saved = try output.save(image.bytes)
            let photo = Photo(path: saved, width: size.width, height: size.height, duration: ContinuousClock.now - started)
            notify(.photoSaved(photo))
            return photo
        } catch {
            output.discard()
            throw error
        }
    }
}
