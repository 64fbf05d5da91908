import CameraErrors
import Controls

extension CameraControls {
    /// The controls of a discovered camera.
    public convenience init(camera: Camera) throws(CameraError) {
        try self.init(devicePath: camera.path)
    }

    /// The controls of the camera a selector names (see `CameraDiscovery.camera(matching:)`); nil selects the
    /// first camera.
    public convenience init(cameraMatching selector: String?) throws(CameraError) {
        let camera = try CameraDiscovery.camera(matching: selector)
        if let problem = camera.problem { throw problem }
        try self.init(devicePath: camera.path)
    }
}
