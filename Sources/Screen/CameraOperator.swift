import Synchronization
import CameraErrors
import Controls
import MediaFiles
import LinuxSystem
import Session

/// Carries out camera screen actions on a running session (capture, zoom, torch, focus, switching) and keeps
/// the figures of its status line. The window, the terminal preview and the remote socket all use one.
public final class CameraOperator: Sendable {
    public let library: PhotoLibrary
    /// Where `r` records to.
    public let videos: VideoLibrary
    /// `gstcam preview --pre`: this much video is kept all along, so `r` saves a recording that begins that long
    /// before the key (`keepPreRollArmed`).
    public let preRoll: Duration?

    private struct State {
        /// The session actions go to; the camera screen replaces it when it restarts a camera that came back.
        var session: CameraSession
        var controls: CameraControls?
        var controlsDevice: String?
        var lastTally = FrameTally()
        var lastTime = ContinuousClock.now
        var framesPerSecond = 0.0
        /// When photos fire the flash (`l`, the socket's "flash", `--flash MODE`); it stays across cameras.
        var flashMode = FlashMode.off
        /// Seconds the shutter key counts down first (0: none).
        var timerSeconds = 0
        /// The recording started last (running or ended), so `record_status` can tell how it ended.
        var lastRecording: Recording?
        /// The screen's own pre-roll, armed and waiting for `r` (nil once it has begun).
        var armedPreRoll: Recording?
        /// The session that refused the pre-roll: it is not asked again.
        var preRollRefusedBy: ObjectIdentifier?
        /// Recordings being started for others: the pre-roll is not armed meanwhile (it would take their place).
        var startingRecordings = 0
    }

    /// Seconds the screen's shutter counts down before the photo (0: at once).
    var timerSeconds: Int {
        get { state.withLock { $0.timerSeconds } }
        set { state.withLock { $0.timerSeconds = newValue } }
    }

    /// When the screen's photos fire the flash.
    var flashMode: FlashMode {
        get { state.withLock { $0.flashMode } }
        set { state.withLock { $0.flashMode = newValue } }
    }

    private let state: Mutex<State>

    public init(session: CameraSession, library: PhotoLibrary = PhotoLibrary(), videos: VideoLibrary = VideoLibrary(),
                preRoll: Duration? = nil) {
        state = Mutex(State(session: session))
        self.library = library
        self.videos = videos
        self.preRoll = preRoll
    }

    /// Arms the screen's pre-roll when the session runs and records nothing; the screen calls it on each tick, so it is
    /// armed again after a recording ends or fails and on a camera that came back. Returns why a session refused it
    /// (once: that session is not asked again).
    public func keepPreRollArmed() async -> String? {
        guard let preRoll else { return nil }
        let session = self.session
        guard case .running = session.state, session.currentRecording == nil,
              state.withLock({ $0.preRollRefusedBy != ObjectIdentifier(session) && $0.startingRecordings == 0 }) else { return nil }
        do {
            let recording = try await startRecording(on: session, path: nil, options: RemoteRecordingOptions(preRoll: preRoll))
            state.withLock { $0.armedPreRoll = recording }
            return nil
        } catch {
            state.withLock { $0.preRollRefusedBy = ObjectIdentifier(session) }
            return "the last \(Self.seconds(preRoll)) s cannot be kept for r: \((error as? CameraError).map(Self.brief) ?? "\(error)")"
        }
    }

    /// The screen's own pre-roll when it is the session's recording and has not begun.
    private func armedPreRoll(of session: CameraSession) -> Recording? {
        guard let armed = state.withLock({ $0.armedPreRoll }), armed === session.currentRecording, armed.isArmed else { return nil }
        return armed
    }

    private static func seconds(_ duration: Duration) -> String {
        let seconds = duration.inSeconds
        return seconds == seconds.rounded() ? "\(Int(seconds))" : seconds.decimalText(digits: 1)
    }

    /// The session actions go to now.
    public var session: CameraSession { state.withLock { $0.session } }

    /// Sends later actions to `session` (a new session on the same camera after it came back, or on another).
    public func use(_ session: CameraSession) {
        let tally = session.frameTally
        state.withLock { state in
            state.session = session
            state.lastTally = tally
            state.lastTime = .now
            state.framesPerSecond = 0
            state.controlsDevice = nil
            state.controls = nil
        }
    }

    /// The camera's name as the status line shows it.
    var cameraName: String {
        session.cameraName ?? (session.device ?? "Test pattern")
    }

    /// The controls of the camera streaming now; nil for a pipeline without a device (the test pattern) or a
    /// session that ended (whose camera's controls are let go: see `releaseControls()`).
    private func controls() -> CameraControls? {
        guard let device = session.device else {
            releaseControls()
            return nil
        }
        return state.withLock { state in
            if state.controlsDevice != device {
                state.controls = try? state.session.controls(of: device)  // the session puts back what the keys change
                state.controlsDevice = device
            }
            return state.controls
        }
    }

    /// Closes the camera's controls (an open file of the device) until the next action needs them: a driver such
    /// as vivid reconnects after a disconnect only once every file of the device is closed.
    func releaseControls() {
        state.withLock { state in
            state.controls = nil
            state.controlsDevice = nil
        }
    }

    /// Frames per second since the last call (call it about once a second), between the newest frames' timestamps
    /// then and now (FrameTally): the camera's steady rate, not the caller's timer.
    @discardableResult
    public func measureFrameRate() -> Double {
        let tally = session.frameTally
        let now = ContinuousClock.now
        return state.withLock { state in
            let elapsed = now - state.lastTime
            if elapsed > .milliseconds(200) {
                // No rate (a tally with fewer frames than the last one is another session's) reads 0 until the next.
                state.framesPerSecond = tally.framesPerSecond(since: state.lastTally, elapsed: elapsed) ?? 0
                state.lastTally = tally
                state.lastTime = now
            }
            return state.framesPerSecond
        }
    }

    /// Figures of the status line, read now.
    public struct Status: Sendable, Equatable {
        public var camera: String
        public var device: String?
        public var width: Int
        public var height: Int
        public var framesPerSecond: Double
        public var zoom: Double
        /// nil when the camera has no torch.
        public var torch: Bool?
        /// "continuous", "manual", "once" or nil when focus cannot be controlled.
        public var focus: String?
        public var frames: Int
        /// The flash mode photos use; nil when the camera has no flash.
        public var flash: FlashMode?
        /// The recording in progress: its file and figures.
        public var recording: (path: String, progress: RecordingProgress)?
        /// The recording this screen started last, running or ended (its `result` says how it ended).
        public var lastRecording: Recording?

        public static func == (a: Status, b: Status) -> Bool {
            a.camera == b.camera && a.device == b.device && a.width == b.width && a.height == b.height
                && a.framesPerSecond == b.framesPerSecond && a.zoom == b.zoom && a.torch == b.torch && a.focus == b.focus
                && a.frames == b.frames && a.recording?.path == b.recording?.path && a.flash == b.flash
        }
    }

    public func status() -> Status {
        let controls = controls()
        let torch = (try? controls?.torchState())?.isOn
        var focus: String?
        if let controls, let modes = try? controls.focusModes() {
            if modes.continuous, let value = try? controls.control(withID: ControlID.focusAuto)?.value?.integer {
                focus = value != 0 ? "continuous" : (modes.once ? "once" : "manual")
            } else if modes.once {
                focus = "once"
            } else if modes.manual {
                focus = "manual"
            }
        }
        return Status(camera: cameraName, device: session.device, width: session.configuration.width,
                      height: session.configuration.height, framesPerSecond: state.withLock { $0.framesPerSecond },
                      zoom: (session.zoom.factor * 100).rounded() / 100, torch: torch, focus: focus, frames: session.frameCount,
                      flash: controls?.hasFlash == true ? flashMode : nil,
                      recording: armedPreRoll(of: session) != nil ? nil : session.currentRecording.map { ($0.path, $0.progress) },
                      lastRecording: state.withLock { $0.lastRecording })
    }

    /// "Camera · 640×480 · 30.0 fps · 1× · torch off · AF-C"
    func statusLine() -> String {
        statusLine(status())
    }

    /// The status line of `status` (read with `status()`).
    func statusLine(_ status: Status) -> String {
        let fps = (status.framesPerSecond * 10).rounded() / 10
        var parts = [status.camera, "\(status.width)×\(status.height)", "\(fps) fps", Zoom(factor: status.zoom).description]
        if let recording = status.recording {
            let seconds = Int(recording.progress.duration.inSeconds)
            parts.insert("● REC \(seconds / 60):\((seconds % 60).zeroPadded(width: 2))", at: 0)
        }
        if let preRoll, armedPreRoll(of: session) != nil { parts.append("last \(Self.seconds(preRoll)) s kept") }
        parts.append(status.torch.map { $0 ? "torch on" : "torch off" } ?? "no torch")
        if let flash = status.flash { parts.append("flash \(flash.rawValue)") }
        if timerSeconds > 0 { parts.append("timer \(timerSeconds) s") }
        switch status.focus {
        case "continuous": parts.append("AF-C")
        case "once": parts.append("AF-S")
        case "manual": parts.append("MF")
        default: parts.append("fixed focus")
        }
        return parts.joined(separator: " · ")
    }

    /// Does `action`; failures come back as an error outcome (never thrown), so a screen can show them.
    public func perform(_ action: CameraAction) async -> CameraActionOutcome {
        do {
            return try await performThrowing(action)
        } catch let error as CameraError {
            return CameraActionOutcome(message: Self.brief(error), isError: true)
        } catch {
            return CameraActionOutcome(message: "\(error)", isError: true)
        }
    }

    /// The short form a screen shows (stderr gets the same).
    static func brief(_ error: CameraError) -> String {
        switch error {
        case .torchUnavailable: "Torch not available on this camera"
        case .focusUnavailable: "Focus not available on this camera"
        case .flashUnavailable: "Flash not available on this camera"
        case let .noOtherCamera(device?, _): "No other camera to switch to: \(device) is the only one that can be used"
        default: error.description
        }
    }

    /// "Torch not available: the test pattern has no camera device"
    private func noDevice(_ what: String) -> String {
        let file = session.pipelinePath.split(separator: "/").last.map(String.init) ?? session.pipelinePath
        return "\(what) not available: \(file == "test-pattern.pipeline" ? "the test pattern" : file) has no camera device"
    }

    private func requireControls(_ what: String) throws -> CameraControls {
        guard let controls = controls() else {
            throw ScreenError(noDevice(what))
        }
        return controls
    }

    private func performThrowing(_ action: CameraAction) async throws -> CameraActionOutcome {
        switch action {
        case let .capture(destination, format, flash):
            let session = self.session
            let decision = await session.flashDecision(flash ?? flashMode)
            let photo = switch destination {
            case .gallery:
                try await session.capturePhoto(into: library, format: format ?? .jpeg, flash: decision.fires)
            case let .file(path, overwrite):
                try await session.capturePhoto(to: path, format: format, overwrite: overwrite, flash: decision.fires)
            case let .folder(directory):
                try await session.capturePhoto(into: PhotoLibrary(directory: directory, environment: library.environment),
                                               format: format ?? .jpeg, flash: decision.fires)
            }
            var outcome = saved(photo)
            outcome.flashFired = decision.fires
            if decision.fires { outcome.message += " (flash)" }
            return outcome
        case let .flash(mode):
            let mode = mode ?? flashMode.next
            // A mode that would fire needs a flash; the test pattern and cameras without one say so.
            if mode != .off, !(try requireControls("Flash").hasFlash) {
                throw CameraError.flashUnavailable(device: session.device ?? "")
            }
            state.withLock { $0.flashMode = mode }
            return CameraActionOutcome(message: "Flash: \(mode.title)")
        case .toggleTorch:
            let controls = try requireControls("Torch")
            let now = try controls.torchState()
            return try await performThrowing(.torch(on: !now.isOn))
        case let .torch(on):
            let state = try requireControls("Torch").setTorch(on: on)
            return CameraActionOutcome(message: state.isOn ? "Torch on" : "Torch off")
        case .nextCamera:
            let change = try await session.switchCamera()
            return CameraActionOutcome(message: "Camera: \(cameraName) (\(change.to)) in \(Int((change.duration.inSeconds * 1000).rounded())) ms")
        case .zoomIn:
            return try zoom(to: session.zoom.factor * CameraAction.zoomStep)
        case .zoomOut:
            return try zoom(to: session.zoom.factor / CameraAction.zoomStep)
        case .resetZoom:
            return try zoom(to: 1)
        case let .zoom(factor):
            return try zoom(to: factor)
        case .toggleContinuousFocus:
            let controls = try requireControls("Auto focus")
            guard let current = try controls.control(withID: ControlID.focusAuto)?.value?.integer else {
                throw CameraError.focusUnavailable(device: controls.devicePath)
            }
            _ = try controls.write(current != 0 ? 0 : 1, id: ControlID.focusAuto)
            return CameraActionOutcome(message: current != 0 ? "Continuous auto focus off" : "Continuous auto focus on")
        case .focusOnce:
            let result = try await requireControls("Focus").setFocus(.once())
            return CameraActionOutcome(message: "Focus: \(result)")
        case let .focus(point):
            let onSensor = Self.sensorPoint(session.configuration.orientation.unturned(point), zoom: session.zoom)
            guard let controls = controls() else {
                return CameraActionOutcome(message: noDevice("Focus"),
                                           isError: true, focusPoint: point)
            }
            let result = try await controls.focus(at: onSensor)
            let message = switch result.method {
            case .regionOfInterest: result.exposurePoint ? "Focus and exposure at this point" : "Focus at this point"
            case .oneShotWithoutPoint: "Focused (this camera cannot focus at a point)"
            case .none: "This camera cannot focus"
            }
            return CameraActionOutcome(message: message, isError: result.method == .none, focusPoint: point)
        case .toggleRecording:
            guard let recording = session.currentRecording else { return try await performThrowing(.startRecording(path: nil)) }
            return try await performThrowing(recording.isArmed ? .beginRecording : .stopRecording)
        case let .startRecording(path, options):
            // Another command's recording (through the socket) takes the camera from the screen's own pre-roll, which
            // has written nothing; it is armed again once that recording ends.
            state.withLock { $0.startingRecordings += 1 }
            defer { state.withLock { $0.startingRecordings -= 1 } }
            if let armed = armedPreRoll(of: session) { _ = try? await armed.stop() }
            let recording = try await startRecording(on: session, path: path, options: options)
            state.withLock { $0.lastRecording = recording }
            let name = recording.path.split(separator: "/").last.map(String.init) ?? recording.path
            let warning = recording.soundProblem.map { " (no sound: \($0); video only)" } ?? ""
            return CameraActionOutcome(message: "Recording \(name)\(warning)", recordingPath: recording.path)
        case .beginRecording:
            guard let recording = session.currentRecording else { throw ScreenError("Not recording") }
            // The screen's own pre-roll is named when `r` begins it (it may have been armed long before).
            let ownPreRoll = armedPreRoll(of: session) != nil
            try await recording.begin(into: ownPreRoll ? videos.newVideoPath(container: recording.codec.container) : nil)
            state.withLock { state in
                state.lastRecording = recording
                if state.armedPreRoll === recording { state.armedPreRoll = nil }
            }
            let name = recording.path.split(separator: "/").last.map(String.init) ?? recording.path
            return CameraActionOutcome(message: "Recording \(name)", recordingPath: recording.path)
        case .stopRecording:
            guard let recording = session.currentRecording, armedPreRoll(of: session) == nil else { throw ScreenError("Not recording") }
            let video = try await recording.stop()
            let name = video.path.split(separator: "/").last.map(String.init) ?? video.path
            return CameraActionOutcome(message: "Saved \(name) (\(video.duration.inSeconds.decimalText(digits: 1)) s)", video: video)
        case .cycleTimer:
            let steps = CameraAction.timerSteps
            let next = steps[((steps.firstIndex(of: timerSeconds) ?? 0) + 1) % steps.count]
            timerSeconds = next
            return CameraActionOutcome(message: next == 0 ? "Self-timer off" : "Self-timer: \(next) s")
        case .toggleScan:
            return CameraActionOutcome(message: "Scanning needs the camera screen", isError: true)  // CameraScreen does it
        case .openViewer, .closeViewer:
            return CameraActionOutcome(message: "The photo viewer needs the camera screen's window", isError: true)  // CameraScreen does it
        case .quit:
            return CameraActionOutcome(message: "Quit")
        }
    }

    /// A recording into `path`, or a new name in the Videos folder.
    private func startRecording(on session: CameraSession, path: String?, options: RemoteRecordingOptions) async throws -> Recording {
        let target: String
        if let path {
            target = path
        } else {
            try videos.createDirectory()
            let container = try VideoEncoderChoice.choose(options.codec).codec.container
            target = videos.newVideoPath(container: container, segmented: options.segment != nil)
        }
        return try await session.startRecording(RecordingSettings(
            path: target, codec: options.codec, bitrate: options.bitrate, overwrite: options.overwrite,
            segmentDuration: options.segment, duration: options.duration, preRoll: options.preRoll, audio: options.audio))
    }

    private func saved(_ photo: Photo) -> CameraActionOutcome {
        let name = photo.path.split(separator: "/").last.map(String.init) ?? photo.path
        return CameraActionOutcome(message: "Saved \(name)", photo: photo)
    }

    private func zoom(to factor: Double) throws -> CameraActionOutcome {
        let applied = try session.setZoom(Zoom(factor: factor, centerX: session.zoom.centerX, centerY: session.zoom.centerY))
        return CameraActionOutcome(message: "Zoom \(Zoom(factor: applied.factor).description)")
    }

    /// A point of the zoomed picture as a point of the whole frame: the picture shows the zoom's crop.
    static func sensorPoint(_ point: NormalizedPoint, zoom: Zoom) -> NormalizedPoint {
        guard zoom.factor > 1 else { return point }
        let visible = 1 / zoom.factor
        let left = min(max(zoom.centerX - visible / 2, 0), 1 - visible)
        let top = min(max(zoom.centerY - visible / 2, 0), 1 - visible)
        return NormalizedPoint(x: left + point.x * visible, y: top + point.y * visible)
    }
}

/// A camera screen problem with no better CameraError case; the text is shown as it is.
struct ScreenError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
