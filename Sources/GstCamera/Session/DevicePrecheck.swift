import Glibc

/// Opens the camera device once before the pipeline does, so that a missing, forbidden or busy device
/// is reported as such (v4l2src's own messages are generic).
enum DevicePrecheck {
    static func check(_ path: String) throws {
        var info = stat()
        if stat(path, &info) != 0 {
            throw CameraError.noSuchDevice(path: path, available: availableDevices())
        }
        guard (info.st_mode & S_IFMT) == S_IFCHR else {
            throw CameraError.notCaptureDevice(path: path, reason: "not a character device")
        }
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case EACCES, EPERM: throw CameraError.permissionDenied(path: path)
            case EBUSY: throw CameraError.deviceBusy(path: path, holder: nil)
            case ENOENT, ENXIO, ENODEV: throw CameraError.noSuchDevice(path: path, available: availableDevices())
            default: throw CameraError.deviceFailure(path: path, operation: "open", errno: code)
            }
        }
        close(fd)
    }

    /// /dev/video* paths, sorted by number.
    static func availableDevices() -> [String] {
        guard let directory = opendir("/dev") else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("video"), Int(name.dropFirst(5)) != nil { names.append("/dev/" + name) }
        }
        return names.sorted { Int($0.dropFirst(10))! < Int($1.dropFirst(10))! }
    }
}
