import CameraErrors
extension CameraSession {
    /// What the stall watch decided on one look.
    private enum StallVerdict {
        case fine
        /// Silent long enough that the device may have gone without GStreamer noticing (a driver whose queue
        /// just stops, as vivid's after a disconnect): ask it.
        case checkPresence(device: String)
        case warn(device: String, seconds: Int)
        case fail(device: String, seconds: Double)
    }

    /// Runs on the bus thread every `watchInterval` while the pipeline exists: a running camera that sends no
    /// frame gets a `framesStalled` event after `stallWarning` (then each further second) and fails the session
    /// after `stallTimeout`; a camera found gone while silent fails it at once (`deviceGone`).
    func watchForStall() {
        let now = ContinuousClock.now
        let verdict: StallVerdict = shared.withLock { shared in
            guard var running = shared.running else { return .fine }
            defer { shared.updateRunning { $0 = running } }
            let device = running.pipeline.device ?? pipelinePath
            // A camera switch waits for the new camera's first frame with its own deadline.
            if running.sourceSwitch != nil {
                running.lastFrame = now
                return .fine
            }
            let silence = now - running.lastFrame
            if let timeout = configuration.stallTimeout, silence >= timeout {
                return .fail(device: device, seconds: timeout.inSeconds)
            }
            if silence >= configuration.stallWarning {
                let seconds = Int(silence.inSeconds)
                if running.stalledSeconds != seconds {
                    running.stalledSeconds = seconds
                    return .warn(device: device, seconds: seconds)
                }
            }
            if pipelineUsesDevice, silence >= presenceCheckAfter,
               running.lastPresenceCheck.map({ now - $0 >= .milliseconds(500) }) ?? true {
                running.lastPresenceCheck = now
                return .checkPresence(device: device)
            }
            return .fine
        }
        switch verdict {
        case .fine:
            break
        case let .checkPresence(device):
            if let gone = CameraError.lost(device) { fail(gone) }
        case let .warn(device, seconds):
            notify(.framesStalled(device: device, seconds: seconds))
        case let .fail(device, seconds):
            fail(pipelineUsesDevice ? CameraError.lost(device) ?? .stalled(device: device, seconds: seconds)
                                    : .stalled(device: device, seconds: seconds))
        }
    }

    /// Silence after which the device is asked whether it is still there: a few frame intervals, at least half a
    /// second (cheap: an open and a VIDIOC_QUERYCAP, at most twice a second).
    private var presenceCheckAfter: Duration {
        max(.milliseconds(500), .seconds(3 / max(1, configuration.framerate.value)))
    }
}
