import CameraErrors
extension CameraError {
    /// The camera went away or stopped delivering while it was in use (unplugged, stalled, its driver failed
    /// mid-stream). A session that failed with such an error may work again once the camera is back: an app can
    /// wait for the device and start a new session, as the camera screen does.
    public var isCameraLost: Bool {
        switch self {
        case .deviceGone, .stalled, .streamingStopped: return true
        default: return false
        }
    }
}
