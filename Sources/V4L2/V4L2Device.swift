import CGStreamer
import Glibc
import CameraErrors
import LinuxSystem

/// An open V4L2 device node: owns one file descriptor and closes it when released. Every ioctl the library
/// uses is one thin method (see the extensions in this folder) that turns errno into a `CameraError` naming the
/// device and the call.
///
/// Several `V4L2Device`s may be open on the same node at once (V4L2 allows any number of opens; only
/// streaming is exclusive), which is how controls are read and set while `v4l2src` streams on its own fd.
public final class V4L2Device: Sendable {
    let path: String
    private let file: FileDescriptor
    var fd: Int32 { file.rawValue }

    private init(path: String, file: consuming FileDescriptor) {
        self.path = path
        self.file = file
    }

    /// Opens `path` read-write and non-blocking, as v4l2src does. A missing node is `noSuchDevice` with no
    /// cameras listed: listing them is discovery's job, a layer up (`CameraDiscovery.open`).
    public static func open(_ path: String) throws(CameraError) -> V4L2Device {
        do {
            return V4L2Device(path: path, file: try FileDescriptor.open(path, O_RDWR | O_NONBLOCK))
        } catch {
            throw CameraError(errno: error.code, path: path, operation: "open")
        }
    }

    /// Calls ioctl (EINTR retried, as every call: `SystemCalls.valueOrErrno`); returns errno on failure so callers
    /// can treat some codes (EINVAL at the end of an enumeration, for instance) as answers rather than failures.
    func ioctlErrno<Argument>(_ request: UInt, _ argument: inout Argument) -> Int32? {
        do {
            _ = try SystemCalls.valueOrErrno {
                withUnsafeMutablePointer(to: &argument) { Glibc.ioctl(fd, request, UnsafeMutableRawPointer($0)) }
            }
            return nil
        } catch {
            return error.code
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
