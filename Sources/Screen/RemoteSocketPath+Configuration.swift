import Cameras
import PipelineFiles
import Session

extension RemoteSocketPath {
    /// The socket for the camera `configuration` would open; nil when that camera cannot be resolved. `camera`:
    /// that camera, when the caller has found it already (then no camera is probed here).
    public static func path(for configuration: CameraConfiguration, camera: Camera? = nil,
                            environment: [String: String] = currentEnvironment()) -> String? {
        guard let key = cameraKey(for: configuration, camera: camera) else { return nil }
        return path(forKey: key, environment: environment)
    }

    /// "video0" for /dev/video0 (symbolic links such as /dev/v4l/by-id/… resolved through discovery);
    /// the pipeline file's name for a pipeline without a device.
    static func cameraKey(for configuration: CameraConfiguration, camera found: Camera? = nil) -> String? {
        guard let file = try? PipelineFile.load(configuration.pipeline) else { return nil }
        let name: String
        if file.placeholders.contains("device") {
            guard let camera = found ?? (try? CameraDiscovery.camera(matching: configuration.device)) else { return nil }
            name = camera.path
        } else {
            name = file.path
        }
        var key = String(name.split(separator: "/").last ?? "camera")
        if key.hasSuffix(".pipeline") { key.removeLast(".pipeline".count) }
        return key
    }
}
