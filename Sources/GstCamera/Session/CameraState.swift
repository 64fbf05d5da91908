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
}
