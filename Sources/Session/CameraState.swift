import CameraErrors
/// Where a camera session is in its life, in the spirit of AVFoundation camera apps' session status.
public enum CameraState: Sendable, Equatable, CustomStringConvertible {
    /// Created, not started.
    case idle
    /// The pipeline is being built and started; no frame yet.
    case starting
    /// Frames flow.
    case running
    /// Start failed or the pipeline failed while running; the pipeline is already NULL.
    case failed(CameraError)
    /// Stopped on request; the device is released.
    case stopped

    public var description: String {
        switch self {
        case .idle: return "idle"
        case .starting: return "starting"
        case .running: return "running"
        case .failed(let error): return "failed (\(error))"
        case .stopped: return "stopped"
        }
    }
}

/// What a session tells its observers, in order.
public enum CameraEvent: Sendable, Equatable {
    case stateChanged(CameraState)
    /// A GStreamer warning that did not stop the camera.
    case warning(String)
    case photoSaved(Photo)
    /// No frame from `device` (the pipeline file when it opens none) for `seconds` while running: sent once
    /// `CameraConfiguration.stallWarning` has passed, then each further second. The session fails with
    /// `CameraError.stalled` at `stallTimeout`.
    case framesStalled(device: String, seconds: Int)
    /// Frames arrive again after `framesStalled`.
    case framesResumed(device: String)
    /// A recording started, finished or failed (see `Recording`).
    case recording(RecordingEvent)
}

extension CameraEvent {
    /// The words for a stall and its end, for a status line or stderr; nil for other events.
    public var stallNotice: String? {
        switch self {
        case let .framesStalled(device, seconds): return "No frames from \(device) for \(seconds) s"
        case let .framesResumed(device): return "Frames from \(device) again"
        default: return nil
        }
    }
}
