import CGStreamer
import Glibc
import CameraErrors

/// An open V4L2 device node: owns one file descriptor and closes it when released. Every ioctl the library
/// uses is one thin method (see the extensions in this folder) that turns errno into a `CameraError` naming the
/// device and the call.
///
/// Several `V4L2Device`s may be open on the same node at once (V4L2 allows any number of opens; only
/// streaming is exclusive), which is how controls are read and set while `v4l2src` streams on its own fd.
public final class V4L2Device: Sendable {
    let path: String
    let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { _ = Glibc.close(fd) }

    /// Opens `path` read-write and non-blocking, as v4l2src does. A missing node is `noSuchDevice` with no
    /// cameras listed: listing them is discovery's job, a layer up (`CameraDiscovery.open`).
    public static func open(_ path: String) throws(CameraError) -> V4L2Device {
        while true {
            let fd = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { return V4L2Device(path: path, fd: fd) }
            let code = errno
            if code == EINTR { continue }
            throw CameraError(errno: code, path: path, operation: "open")
        }
    }

    /// Calls ioctl, retrying on EINTR; returns errno on failure so callers can treat some codes (EINVAL at the
    /// end of an enumeration, for instance) as answers rather than failures.
    func ioctlErrno<Argument>(_ request: UInt, _ argument: inout Argument) -> Int32? {
        while true {
            let result = withUnsafeMutablePointer(to: &argument) { Glibc.ioctl(fd, request, UnsafeMutableRawPointer($0)) }
            if result >= 0 { return nil }
            if errno != EINTR { return errno }
        }
    }

    /// Calls ioctl and throws a `CameraError` naming `operation` on failure.
    func ioctl<Argument>(_ request: UInt, _ operation: String, _ argument: inout Argument) throws(CameraError) {
        if let code = ioctlErrno(request, &argument) {
            throw CameraError(errno: code, path: path, operation: operation)
        }
    }
}

extension CameraError {
    /// The errno of an open or ioctl on a device node, as the error a person can act on.
    public init(errno code: Int32, path: String, operation: String) {
        switch code {
        case ENOENT: self = .noSuchDevice(path: path, available: [])
        case EACCES, EPERM: self = .permissionDenied(path: path)
        case EBUSY: self = .deviceBusy(path: path, holder: DeviceHolders.describe(holding: path))
        case ENODEV, ENXIO: self = .deviceGone(path: path)
        case ENOTTY where operation == "VIDIOC_QUERYCAP":
            self = .notCaptureDevice(path: path, reason: "not a V4L2 device")
        default: self = .deviceFailure(path: path, operation: operation, errno: code)
        }
    }
}

/// Fixed-size C character arrays (imported as tuples) as Swift strings.
func cString<Tuple>(_ tuple: Tuple) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
