import Glibc
import V4L2

/// Where a running camera screen listens: `$XDG_RUNTIME_DIR/gstcam-CAMERA.sock`, or without that variable
/// `/tmp/gstcam-UID/CAMERA.sock` (a folder only this user can enter). CAMERA is the device's name (video0) or,
/// for a pipeline without a device, the pipeline file's name (test-pattern): one socket per camera. Here, so
/// that opening a busy camera can ask whether our own screen holds it (`CameraScreenHolder`); the screen
/// (module Screen) listens there.
public enum RemoteSocketPath {
    /// The socket for the camera at `device` (e.g. after a camera switch).
    public static func path(forDevice device: String, environment: [String: String] = currentEnvironment()) -> String {
        path(forKey: sanitized(String(device.split(separator: "/").last ?? "camera")), environment: environment)
    }

    /// The socket for a camera named `key` ("video0", "test-pattern"); characters other than letters, digits,
    /// "-" and "_" become "_".
    public static func path(forKey key: String, environment: [String: String] = currentEnvironment()) -> String {
        let key = sanitized(key)
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/gstcam-" + key + ".sock"
        }
        return fallbackFolder() + "/" + key + ".sock"
    }

    static func sanitized(_ key: String) -> String {
        String(key.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }

    /// The folder used without XDG_RUNTIME_DIR.
    public static func fallbackFolder() -> String { "/tmp/gstcam-\(getuid())" }

    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["XDG_RUNTIME_DIR"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
