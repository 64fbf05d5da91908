import CameraErrors
import Glibc
import LinuxSystem
import V4L2

/// A gstcam camera screen serving a camera: its socket (`RemoteSocketPath`) accepts a connection, and the peer's
/// credentials (SO_PEERCRED) say which process it is — that process holds the camera.
public enum CameraScreenHolder {
    /// The screen process serving the camera at `devicePath`, or nil (no socket, a folder that is not this
    /// user's alone, nothing accepting, or this process itself).
    public static func pid(for devicePath: String) -> Int32? {
        var resolved = devicePath
        if let real = realpath(devicePath, nil) {
            resolved = String(cString: real)
            free(real)
        }
        let socketPath = RemoteSocketPath.path(forDevice: resolved)
        var info = stat()
        guard lstat(socketPath, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK,
              RuntimeFolder.distrust(RuntimeFolder.of(socketPath)) == nil,
              let socket = try? UnixSocket.make(), (try? socket.connect(to: socketPath)) != nil,
              let pid = socket.peerProcessID, pid != getpid() else { return nil }
        return pid
    }

    /// The error for a camera that answered EBUSY: our own camera screen when its socket answers for this
    /// camera (with what to do instead), else `deviceBusy` naming the holders that can be seen.
    public static func busyError(path: String) -> CameraError {
        if let pid = pid(for: path) { return .heldByCameraScreen(path: path, pid: pid) }
        return .deviceBusy(path: path, holder: DeviceHolders.describe(holding: path))
    }
}
