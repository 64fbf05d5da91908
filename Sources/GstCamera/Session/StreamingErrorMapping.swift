import CGStreamer

extension CameraError {
    /// Turns a GStreamer error message into the CameraError a person can act on. `device` is the camera
    /// the pipeline opened, if any.
    static func fromBus(_ error: BusError, device: String?) -> CameraError {
        let (source, domain, code, message) = (error.source, error.domain, error.code, error.message)
        let debugText = error.debug ?? ""
        let path = device ?? source
        if domain == "gst-resource-error-quark" {
            switch GstResourceError(rawValue: UInt32(code)) {
            case GST_RESOURCE_ERROR_BUSY:
                return DeviceHolders.busyError(path: path)
            case GST_RESOURCE_ERROR_NOT_AUTHORIZED:
                return .permissionDenied(path: path)
            case GST_RESOURCE_ERROR_NOT_FOUND:
                return .noSuchDevice(path: path, available: [])
            case GST_RESOURCE_ERROR_OPEN_READ, GST_RESOURCE_ERROR_OPEN_READ_WRITE:
                if debugText.contains("Permission denied") { return .permissionDenied(path: path) }
                if debugText.contains("Device or resource busy") {
                    return DeviceHolders.busyError(path: path)
                }
                if debugText.contains("No such file") { return .noSuchDevice(path: path, available: []) }
            case GST_RESOURCE_ERROR_NO_SPACE_LEFT:
                return .writeFailed(path: source, errno: ENOSPC)
            case GST_RESOURCE_ERROR_SETTINGS:
                return .negotiationFailed(device: device, detail: message)
            default:
                break
            }
            if debugText.contains("No such device") { return .deviceGone(path: path) }
        }
        if debugText.contains("not-negotiated") || message.contains("not negotiate") {
            return .negotiationFailed(device: device, detail: reasonLine(debugText.isEmpty ? message : debugText))
        }
        let detail = debugText.isEmpty ? message : "\(message) (\(reasonLine(debugText)))"
        return .streamingFailed(source: source, detail: detail)
    }

    /// GStreamer's debug text ends with the line that says why ("streaming stopped, reason not-negotiated").
    private static func reasonLine(_ text: String) -> String {
        String(text.split(separator: "\n").last ?? Substring(text))
    }
}
