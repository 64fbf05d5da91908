import Glibc

/// Where a running camera screen listens: `$XDG_RUNTIME_DIR/gstcam-CAMERA.sock`, or without that variable
/// `/tmp/gstcam-UID/CAMERA.sock` (a folder only this user can enter). CAMERA is the device's name (video0) or,
/// for a pipeline without a device, the pipeline file's name (test-pattern): one socket per camera.
public enum RemoteSocketPath {
    /// The socket for the camera `configuration` would open; nil when that camera cannot be resolved.
    public static func path(for configuration: CameraConfiguration, environment: [String: String] = currentEnvironment()) -> String? {
        guard let key = cameraKey(for: configuration) else { return nil }
        return path(forKey: key, environment: environment)
    }

    /// The socket for the camera at `device` (e.g. after a camera switch).
    public static func path(forDevice device: String, environment: [String: String] = currentEnvironment()) -> String {
        path(forKey: sanitized(String(device.split(separator: "/").last ?? "camera")), environment: environment)
    }

    static func sanitized(_ key: String) -> String {
        String(key.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }

    static func path(forKey key: String, environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/gstcam-" + key + ".sock"
        }
        return fallbackFolder() + "/" + key + ".sock"
    }

    static func fallbackFolder() -> String { "/tmp/gstcam-\(getuid())" }

    /// "video0" for /dev/video0 (symbolic links such as /dev/v4l/by-id/… resolved through discovery);
    /// the pipeline file's name for a pipeline without a device.
    static func cameraKey(for configuration: CameraConfiguration) -> String? {
        guard let file = try? PipelineFile.load(configuration.pipeline) else { return nil }
        let name: String
        if file.placeholders.contains("device") {
            guard let camera = try? CameraDiscovery.camera(matching: configuration.device) else { return nil }
            name = camera.path
        } else {
            name = file.path
        }
        var key = String(name.split(separator: "/").last ?? "camera")
        if key.hasSuffix(".pipeline") { key.removeLast(".pipeline".count) }
        return sanitized(key)
    }

    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["XDG_RUNTIME_DIR"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
