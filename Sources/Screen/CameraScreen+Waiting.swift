import Glibc
import CameraErrors
import Cameras
import LinuxSystem
import Reports
import Session


/// The camera screen while its camera is gone, as GNOME Snapshot does it: say so, wait for the same camera to be
/// listed again (CameraMonitor), and show it again on a new session. The failed session's pipeline is NULL by
/// then, its device closed, which is also what lets a driver like vivid reconnect (it does when the last
/// handle closes). The window shows a dark waiting picture (pipelines/waiting.pipeline) with the message; the
/// terminal shows the message instead of the picture; stderr gets a line either way.
extension CameraScreen {
    /// What the screen says while it waits: a stalled camera is still there, any other lost one is gone.
    static func waitingMessage(for error: CameraError) -> String {
        switch error {
        case .stalled: "No frames from the camera — waiting for it"
        case .deviceBusy: "The camera is in use by another program — waiting for it"
        case .permissionDenied: "No permission to use the camera — waiting for it"
        default: "Camera disconnected — waiting for it"
        }
    }

    /// How long after a failed restart the next try waits (a camera that is listed but will not stream yet).
    static let retryInterval = Duration.seconds(2)

    /// Waits for `camera` to come back and shows it again; false when the screen ends first (q, the window
    /// closed, a signal, the duration).
    func waitForCamera(_ camera: Camera, after error: CameraError, deadline: ContinuousClock.Instant?) async -> Bool {
        let clock = ContinuousClock()
        let lost = clock.now
        state.withLock { $0.waiting = (error, camera, false) }
        // The failed session's pipeline is NULL; the screen's own handle on the camera's controls goes too, or a
        // driver that reconnects on the last close (vivid) would never come back.
        cameraOperator.releaseControls()
        defer { state.withLock { $0.waiting = nil } }
        Standard.error.write("gstcam: \(error)\n")
        let message = Self.waitingMessage(for: error)
        Standard.error.write("gstcam: \(message): \(Self.label(camera)) (\(camera.path)); the preview resumes when it is back\n")
        printEvent("waiting", "\(message): \(error)")
        showWaiting(camera, message)
        var picture = await startWaitingPicture()
        defer { picture.map(stopHelper) }
        // A first try soon: the failed pipeline has just gone to NULL, and a driver that reconnects on the last
        // close (vivid) is back at once.
        var nextTry = clock.now + .milliseconds(500)
        var ticks = Ticker.every(.milliseconds(250)).makeAsyncIterator()
        while !isOver {
            if let deadline, clock.now >= deadline { return false }
            // c (or a switch request) while waiting: another camera instead.
            if state.withLock({ $0.waiting?.switchRequested == true }), let other = otherCamera(than: camera) {
                state.withLock { $0.waiting?.switchRequested = false }
                picture.map(stopHelper)
                picture = nil
                if await restart(on: other) {
                    resumed(on: other, from: camera, saying: "Camera", "Camera: \(other.name) (\(other.path)); "
                            + "\(Self.label(camera)) is still gone", event: "switched")
                    return true
                }
                guard !isOver else { break }
                showWaiting(camera, message)
                picture = await startWaitingPicture()
            }
            if clock.now >= nextTry, let back = cameraBack(camera, after: error) {
                // The waiting picture stays while the camera is tried: a camera still busy fails before its window
                // opens, and the error view stays as it was instead of being rebuilt at every try.
                if await restart(on: back) {
                    picture.map(stopHelper)
                    picture = nil
                    let seconds = Int((clock.now - lost).inSeconds.rounded())
                    resumed(on: back, from: camera, saying: "Camera back",
                            "\(Self.label(back)) is back (\(back.path)) after \(seconds) s; preview resumed", event: "resumed")
                    return true
                }
                nextTry = clock.now + Self.retryInterval
                guard !isOver else { break }
                if let shown = picture {
                    surface?.showAgain(shown)
                    showWaiting(camera, message)
                } else {
                    showWaiting(camera, message)
                    picture = await startWaitingPicture()
                }
            }
            _ = await ticks.next()
        }
        return false
    }

    /// The camera's name, or "Camera" for one this user may not open (the name is read from the device).
    static func label(_ camera: Camera) -> String { camera.name.isEmpty ? "Camera" : camera.name }

    /// The camera to try again, when it may be: listed again and openable by this user. A camera refused for
    /// permission is checked with access(2) each time, as the monitor does not open a node it knows again.
    private func cameraBack(_ camera: Camera, after error: CameraError) -> Camera? {
        if case .permissionDenied = error {
            return access(camera.path, R_OK | W_OK) == 0 ? camera : nil
        }
        guard let back = monitor.cameras.first(where: { $0.isSameCamera(as: camera) && $0.isAccessible }),
              Self.nodeExists(back.path) else { return nil }
        return back
    }

    /// The screen shows `camera` again (or another one): the message goes, the socket follows the device.
    private func resumed(on camera: Camera, from lost: Camera, saying brief: String, _ text: String, event: String) {
        surface?.showError(nil)
        surface?.showLastingMessage(nil)
        surface?.showMessage(brief == "Camera" ? "Camera: \(camera.name)" : brief, for: .seconds(2))
        surface?.setStatus(cameraOperator.statusLine())
        Standard.error.write("gstcam: \(text)\n")
        printEvent(event, text)
        if camera.path != lost.path, let server = server.withLock({ $0 }) {
            server.move(to: RemoteSocketPath.path(forDevice: camera.path))
        }
    }

    /// The first camera this user can open that is not `camera`, as the monitor lists them.
    func otherCamera(than camera: Camera) -> Camera? {
        monitor.cameras.first { $0.isAccessible && !$0.isSameCamera(as: camera) }
    }

    private func showWaiting(_ camera: Camera, _ message: String) {
        surface?.showLastingMessage(message)
        let error = state.withLock { $0.waiting?.error }
        let condition = switch error {
        case .deviceBusy: "in use"
        case .permissionDenied: "no permission"
        case .stalled: "no frames"
        default: "disconnected"
        }
        surface?.setStatus("\(Self.label(camera)) (\(camera.path)) · \(condition)")
        if let error {
            surface?.showError(Self.errorView(for: error, camera: Self.label(camera)))
        }
    }

    /// A new session on the camera that came back, with the screen's settings and zoom; true once it shows frames.
    private func restart(on camera: Camera) async -> Bool {
        var configuration = self.configuration
        if let chooseMode {
            guard let chosen = try? chooseMode() else { return false }
            configuration = chosen
        }
        configuration.device = camera.path
        guard let candidate = try? CameraSession(configuration: configuration) else { return false }
        _ = try? candidate.setZoom(session.zoom)
        guard await startShown(candidate, failure: "\(camera.path) is listed again but does not stream yet") else { return false }
        guard !isOver else {
            stopHelper(candidate)
            return false
        }
        cameraOperator.use(candidate)
        forgetHelper(candidate)
        return true
    }

    /// The dark picture with the message, in a window, while the camera is gone (nil without a window).
    private func startWaitingPicture() async -> CameraSession? {
        guard configuration.displaySink != nil, surface != nil else { return nil }
        var waiting = configuration
        waiting.pipeline = "waiting"
        waiting.device = nil
        waiting.controls = []
        guard let picture = try? CameraSession(configuration: waiting),
              await startShown(picture, failure: "the waiting picture could not be shown") else { return nil }
        return picture
    }

    /// Starts a session of the screen's own (stopped with the screen) and shows it; false, after saying
    /// `failure` and why, when it does not start.
    private func startShown(_ helper: CameraSession, failure: String) async -> Bool {
        guard startHelper(helper) else { return false }
        surface?.follow(helper)
        do {
            try await helper.start()
            return true
        } catch {
            stopHelper(helper)
            Standard.error.write("gstcam: \(failure): \(error)\n")
            return false
        }
    }

    /// Registers a session that must stop with the screen; false (and nothing registered) once the screen is over.
    private func startHelper(_ helper: CameraSession) -> Bool {
        state.withLock { state in
            guard state.ending == nil, !state.stopRequested else { return false }
            state.helpers[ObjectIdentifier(helper)] = helper
            return true
        }
    }

    private func stopHelper(_ helper: CameraSession) {
        helper.stop()
        forgetHelper(helper)
    }

    private func forgetHelper(_ helper: CameraSession) {
        state.withLock { _ = $0.helpers.removeValue(forKey: ObjectIdentifier(helper)) }
    }

    /// Whether the node is there at all (an unplugged camera's node is gone; vivid's stays while it reconnects).
    private static func nodeExists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// A JSON line for scripts following the screen with --json.
    func printEvent(_ event: String, _ message: String) {
        guard json, !picker else { return }
        print(JSONOutput.line(EventRecord(event: event, message: message)))
        fflush(nil)
    }
}
