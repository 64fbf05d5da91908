import CGStreamer
import Glibc
import CameraErrors
import GStreamer
import V4L2
import Cameras

extension CameraError {
    /// Turns a GStreamer error message into the CameraError a person can act on. `device` is the camera
    /// the pipeline opened, if any.
    ///
    /// v4l2src (GStreamer 1.22) words several camera failures as something else, so its domain and code are
    /// not taken at their word:
    /// - any failed VIDIOC_DQBUF (ENODEV, EIO, ETIMEDOUT…) is RESOURCE/NO_SPACE_LEFT "Failed to allocate a
    ///   buffer", without the errno;
    /// - a failed REQBUFS/QUERYBUF/QBUF/STREAMON while starting is RESOURCE/SETTINGS "Failed to allocate
    ///   required memory." with the debug text "Buffer pool activation failed", without the errno;
    /// - POLLERR on the device (an unplug, or a driver that flagged its queue as broken) is RESOURCE/READ
    ///   "poll error N: …" where N counts descriptors and the errno text is left over from an earlier call.
    /// So for these the device itself is asked whether it is still there, and an errno is read from the
    /// debug text only where v4l2src put the call's own errno there.
    static func fromBus(_ error: BusError, device: String?) -> CameraError {
        let (source, domain, code, message) = (error.source, error.domain, error.code, error.message)
        let debugText = error.debug ?? ""
        let path = device ?? source
        // The camera element (pipeline files name it `source`) of a pipeline that opened a device.
        let camera = source == "source" ? device : nil
        if domain == "gst-resource-error-quark" {
            switch GstResourceError(rawValue: UInt32(code)) {
            case GST_RESOURCE_ERROR_BUSY:
                return CameraScreenHolder.busyError(path: path)
            case GST_RESOURCE_ERROR_NOT_AUTHORIZED:
                return .permissionDenied(path: path)
            case GST_RESOURCE_ERROR_NOT_FOUND:
                return .noSuchDevice(path: path, available: [])
            case GST_RESOURCE_ERROR_OPEN_READ, GST_RESOURCE_ERROR_OPEN_READ_WRITE:
                if debugText.contains("Permission denied") { return .permissionDenied(path: path) }
                if debugText.contains("Device or resource busy") {
                    return CameraScreenHolder.busyError(path: path)
                }
                if debugText.contains("No such file") { return .noSuchDevice(path: path, available: []) }
            case GST_RESOURCE_ERROR_NO_SPACE_LEFT:
                if let camera {
                    return lost(camera) ?? .streamingStopped(
                        device: camera, reason: "its driver failed to hand over a frame (VIDIOC_DQBUF failed)")
                }
                return .writeFailed(path: source, errno: ENOSPC)
            case GST_RESOURCE_ERROR_SETTINGS where camera != nil && debugText.contains("Buffer pool activation failed"):
                let camera = camera!
                return lost(camera) ?? busy(camera) ?? .streamStartFailed(
                    device: camera,
                    reason: "its driver refused to set up or start its frame buffers (VIDIOC_REQBUFS, QUERYBUF, QBUF or STREAMON failed)")
            case GST_RESOURCE_ERROR_SETTINGS:
                return .negotiationFailed(device: device, detail: message)
            case GST_RESOURCE_ERROR_READ where camera != nil && debugText.contains("poll error"):
                let camera = camera!
                return lost(camera) ?? .streamingStopped(
                    device: camera, reason: "its driver reported the stream as broken (POLLERR)")
            case GST_RESOURCE_ERROR_READ where camera != nil && debugText.contains("Failed to create buffer pool"):
                // Here the errno is the call's own (VIDIOC_REQBUFS while setting up the buffers).
                let camera = camera!
                let errno = Self.errno(in: debugText)
                if errno == EBUSY, let busy = busy(camera) { return busy }
                return lost(camera) ?? .streamStartFailed(
                    device: camera, reason: "its driver could not set up its frame buffers"
                        + (errno.map { " (\(String(cString: strerror($0))))" } ?? ""))
            default:
                break
            }
            if debugText.contains("No such device") { return .deviceGone(path: path) }
        }
        if debugText.contains("not-negotiated") || message.contains("not negotiate") {
            return .negotiationFailed(device: device, detail: reasonLine(debugText.isEmpty ? message : debugText))
        }
        if let camera, let gone = lost(camera) { return gone }
        let detail = debugText.isEmpty ? message : "\(message) (\(reasonLine(debugText)))"
        return .streamingFailed(source: source, detail: detail)
    }

    /// `deviceGone` when the camera no longer answers (unplugged: ENOENT, ENODEV or ENXIO on open or on
    /// VIDIOC_QUERYCAP), else nil.
    static func lost(_ device: String) -> CameraError? {
        do {
            _ = try V4L2Device.open(device).queryCapabilities()
            return nil
        } catch {
            switch error {
            case .noSuchDevice, .deviceGone: return .deviceGone(path: device)
            default: return nil
            }
        }
    }

    /// `deviceBusy` when another process has the camera open, else nil.
    private static func busy(_ device: String) -> CameraError? {
        DeviceHolders.describe(holding: device).map { .deviceBusy(path: device, holder: $0) }
    }

    /// The errno whose text (strerror) appears in GStreamer's debug text, for the codes a camera call gives.
    static func errno(in text: String) -> Int32? {
        [ENXIO, ENODEV, ENOENT, EBUSY, EIO, ETIMEDOUT, ENOSPC, ENOMEM, EINVAL, EPIPE, EACCES, EPERM, EAGAIN]
            .first { text.contains(String(cString: strerror($0))) }
    }

    /// GStreamer's debug text ends with the line that says why ("streaming stopped, reason not-negotiated").
    private static func reasonLine(_ text: String) -> String {
        String(text.split(separator: "\n").last ?? Substring(text))
    }
}
