import FoundationEssentials
import Glibc
import LinuxSystem
import MediaFiles
import Reports

extension CameraScreen {
    /// `g` (and the last-photo thumbnail): the photo viewer on the gallery and the Videos folder, in a window of its
    /// own over the camera's.
    /// The camera keeps running meanwhile — a recording, the socket, SIGUSR1 photos and the self-timer go on, and
    /// nothing has to be restarted afterwards — while the keys go to the viewer's window, which has the focus.
    /// Esc, q, Enter or closing the viewer's window comes back to the camera window.
    func openViewer() -> CameraActionOutcome {
        guard surface is CameraWindow, let sink = configuration.displaySink else {
            return CameraActionOutcome(message: "The photo viewer needs a window; run gstcam view", isError: true)
        }
        guard state.withLock({ $0.viewer == nil }) else { return CameraActionOutcome(message: "The photo viewer is open") }
        let library = cameraOperator.library
        let viewer: PhotoViewer
        do {
            let items = ViewerItem.merged(photos: try library.photos(), videos: (try? cameraOperator.videos.videos()) ?? [])
            guard !items.isEmpty else {
                return CameraActionOutcome(message: "No photos in \(library.directory) yet", isError: true)
            }
            viewer = try PhotoViewer.open(items: items, sink: sink, trash: Trash(environment: library.environment))
        } catch {
            return CameraActionOutcome(message: "\(error)", isError: true)
        }
        state.withLock { $0.viewer = viewer }
        Task {
            let ending = await viewer.run()
            self.state.withLock { $0.viewer = nil }
            // Enter chose a photo or video: its path on stdout, as `gstcam view` and the picker print theirs.
            if case let .chosen(path) = ending {
                print(json ? JSONOutput.line(EventRecord(event: "chosen", message: path)) : path)
                fflush(nil)
                self.surface?.showMessage("Chosen: \(FilePath.lastComponent(of: path))", for: .seconds(2))
            } else {
                self.surface?.showMessage("Back to the camera", for: .milliseconds(1500))
            }
        }
        return CameraActionOutcome(message: "Photo viewer: \(viewer.items.count) photos and videos")
    }

    /// Closes the viewer opened over the camera (the socket's `viewer` with `"open":false`); the camera window is
    /// shown again.
    func closeViewer() -> CameraActionOutcome {
        guard let viewer = state.withLock({ $0.viewer }) else {
            return CameraActionOutcome(message: "The photo viewer is not open", isError: true)
        }
        viewer.close()
        return CameraActionOutcome(message: "Photo viewer closed")
    }
}
