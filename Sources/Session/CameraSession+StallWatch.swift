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

    /// Runs on the bus thread after each message and whenever the wait it asked for ends: a running camera that
    /// sends no frame gets a `framesStalled` event after `stallWarning` (then each further second) and fails the
    /// session after `stallTimeout`; a camera found gone while silent fails it at once (`deviceGone`).
    ///
    /// Returns how long the bus thread may wait for a message before looking again: until the silence could first
    /// reach one of those marks. While frames flow that is about `presenceCheckAfter` (half a second) away, so a
    /// streaming camera wakes the thread twice a second, not ten times (issue 13), and a camera that goes silent
    /// is still looked at the moment a mark is reached.
    func watchForStall() -> Duration {
        let now = ContinuousClock.now
        let (verdict, nextLook): (StallVerdict, Duration) = shared.withLock { shared in
            guard var running = shared.running else { return (.fine, Self.idleLookInterval) }
            defer { shared.updateRunning { $0 = running } }
            let device = running.pipeline.device ?? pipelinePath
            // A camera switch waits for the new camera's first frame with its own deadline.
            if running.sourceSwitch != nil {
                running.lastFrame = now
                return (.fine, Self.idleLookInterval)
            }
            let silence = now - running.lastFrame
            let nextLook = nextStallLook(silence: silence, sincePresenceCheck: running.lastPresenceCheck.map { now - $0 })
            if let timeout = configuration.stallTimeout, silence >= timeout {
                return (.fail(device: device, seconds: timeout.inSeconds), nextLook)
            }
            if silence >= configuration.stallWarning {
                let seconds = Int(silence.inSeconds)
                if running.stalledSeconds != seconds {
                    running.stalledSeconds = seconds
                    return (.warn(device: device, seconds: seconds), nextLook)
                }
            }
            if pipelineUsesDevice, silence >= presenceCheckAfter,
               running.lastPresenceCheck.map({ now - $0 >= Self.presenceCheckSpacing }) ?? true {
                running.lastPresenceCheck = now
                return (.checkPresence(device: device), Self.presenceCheckSpacing)
            }
            return (.fine, nextLook)
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
        return nextLook
    }

    /// The wait until the silence, `silence` long now, first reaches a mark the watch acts on: the presence
    /// check (then each `presenceCheckSpacing`), the warning (then each whole second), the timeout. Kept between
    /// `shortestLook` (a mark just passed must not spin the thread) and `longestLook`.
    private func nextStallLook(silence: Duration, sincePresenceCheck: Duration?) -> Duration {
        var marks: [Duration] = []
        if let timeout = configuration.stallTimeout { marks.append(timeout - silence) }
        // Warnings come at each whole second of silence from `stallWarning` on.
        marks.append(silence < configuration.stallWarning ? configuration.stallWarning - silence
                                                          : .seconds(1) - Self.fractionOfSecond(silence))
        if pipelineUsesDevice {
            marks.append(silence < presenceCheckAfter ? presenceCheckAfter - silence
                                                      : Self.presenceCheckSpacing - (sincePresenceCheck ?? .zero))
        }
        return min(Self.longestLook, max(Self.shortestLook, marks.min() ?? Self.longestLook))
    }

    private static func fractionOfSecond(_ duration: Duration) -> Duration {
        .nanoseconds(duration.components.attoseconds / 1_000_000_000)
    }

    /// How long the bus thread waits without looking while the session starts or a camera switch waits for its
    /// first frame (their own deadlines decide; the watch only keeps its figures current).
    static let idleLookInterval = Duration.milliseconds(100)
    /// The longest wait between two looks while running.
    private static let longestLook = Duration.seconds(1)
    /// The shortest wait between two looks.
    private static let shortestLook = Duration.milliseconds(10)
    /// At most this often the device is asked whether it is still there.
    private static let presenceCheckSpacing = Duration.milliseconds(500)

    /// Silence after which the device is asked whether it is still there: a few frame intervals, at least half a
    /// second (cheap: an open and a VIDIOC_QUERYCAP, at most twice a second).
    private var presenceCheckAfter: Duration {
        max(.milliseconds(500), .seconds(3 / max(1, configuration.framerate.value)))
    }
}
