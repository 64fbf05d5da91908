import Dispatch
import CameraErrors
import Cameras
import Session

extension ControlBar {
    /// Hides and shows the window's control bar.
    static let hideKey = "h"
}

/// What the camera screen tells its view about the control bar, the last photo and the error view. A view without
/// a bar (the terminal) ignores what it cannot show.
extension ScreenView {
    func showControls(_ settings: ControlBar.Settings) {}
    func showLastPhoto(_ thumbnail: PhotoThumbnail) {}
    func showShutter() {}
    func toggleControls() -> Bool? { nil }
    func showError(_ view: ErrorView?) {}
    func showAgain(_ session: CameraSession) {}
    func showCode(_ highlight: ScanHighlight) {}
}

extension CameraWindow {
    func showControls(_ settings: ControlBar.Settings) { controlBar.show(settings) }
    func showLastPhoto(_ thumbnail: PhotoThumbnail) { controlBar.show(thumbnail) }
    func showShutter() { controlBar.flashShutter() }
    func toggleControls() -> Bool? { controlBar.toggleHidden() }
    func showError(_ view: ErrorView?) { controlBar.show(error: view) }
    func showCode(_ highlight: ScanHighlight) { controlBar.show(code: highlight) }
}

extension CameraScreen {
    /// The status line (unless `line` is false: a stall notice holds it) and the control bar's buttons, from one
    /// reading of the camera's state: its controls are asked once (each a USB request on a UVC camera).
    /// The buttons show the flash mode, the torch, the self-timer, and whether `c` has a camera to switch to.
    func refreshStatusAndControls(line: Bool = true) {
        guard let surface else { return }
        let status = cameraOperator.status()
        if line { surface.setStatus(cameraOperator.statusLine(status)) }
        let usable = monitor.cameras.filter(\.isAccessible).count
        surface.showControls(ControlBar.Settings(flash: cameraOperator.flashMode, torch: status.torch,
                                                 timer: cameraOperator.timerSeconds, canSwitch: usable > 1))
    }

    /// A photo was taken: the shutter's flash now, its thumbnail once decoded (off the caller's thread, once per
    /// photo; a photo that does not decode keeps the previous thumbnail).
    func showTaken(_ photo: Photo) {
        guard let surface else { return }
        surface.showShutter()
        DispatchQueue.global(qos: .utility).async {
            guard let thumbnail = try? PhotoThumbnail.make(path: photo.path, width: photo.width, height: photo.height) else { return }
            surface.showLastPhoto(thumbnail)
        }
    }

    /// The error view for a camera that is gone (the top line says "Camera disconnected — waiting for it"): the
    /// camera, the failure (what, where, the fix), and how the screen comes back.
    static func errorView(for error: CameraError, camera: String) -> ErrorView {
        let comesBack = switch error {
        case .deviceBusy: "The preview starts by itself once the other program lets go of the camera."
        case .permissionDenied: "The preview starts by itself once the camera may be opened."
        default: "The preview comes back by itself when the camera is back."
        }
        return ErrorView(title: camera, detail: error.description, footer: comesBack + " q quits; c switches to another camera.")
    }
}

extension CameraScreen {
    /// Failures at launch the screen waits out (the camera is there but may not be opened yet).
    static func waitsAtLaunch(for error: CameraError) -> Bool {
        switch error {
        case .deviceBusy, .permissionDenied: true
        default: false
        }
    }

    /// The camera could not be opened at launch (`error`): in a window or the terminal, a camera that is busy or not permitted is
    /// waited for with the error view, as one that goes away is; true once it shows, false to fail as before
    /// (no window, `--no-wait`, other failures, the screen ended first).
    func waitAtLaunch(after error: CameraError, duration: Double?) async -> Bool {
        guard Self.waitsAtLaunch(for: error), surface != nil, waitsForCamera, let device = session.device ?? configuration.device,
              let camera = monitor.cameras.first(where: { $0.path == device }) ?? CameraDiscovery.cameras().first(where: { $0.path == device })
        else { return false }
        session.stop()
        state.withLock { $0.camera = camera }
        let deadline = duration.map { ContinuousClock.now + .milliseconds(Int($0 * 1000)) }
        return await waitForCamera(camera, after: error, deadline: deadline)
    }
}
