import CameraErrors
import Controls
extension CameraSession {
    /// The controls of the camera the session streams (on a second file descriptor, which V4L2 allows while the
    /// pipeline streams): torch, focus, exposure, optical zoom and every control by name.
    /// - Throws: `noDeviceControls` for a pipeline without a camera (the test pattern), `notRunning` before the
    ///   camera is chosen.
    public func controls() throws -> CameraControls {
        guard pipelineUsesDevice else { throw CameraError.noDeviceControls(pipeline: pipelinePath) }
        guard let device = device else { throw CameraError.notRunning(state: state.description) }
        return try controls(of: device)
    }

    /// The controls of `device` as this session changes them: values it writes are put back when it ends
    /// (`ControlRestorer`).
    public func controls(of device: String) throws(CameraError) -> CameraControls {
        try CameraControls(devicePath: device, restorer: controlRestorer)
    }

    /// The controls of a camera whose flash can fire, armed; `flashUnavailable` otherwise (checked before a
    /// photo touches the pipeline).
    func flashReadyControls() throws -> CameraControls {
        let controls = try controls()
        guard controls.hasFlash else { throw CameraError.flashUnavailable(device: controls.devicePath) }
        try controls.setFlash(armed: true)
        return controls
    }

    /// Sets `configuration.controls` in order on the camera about to stream, so a start applies what was asked
    /// before it (e.g. from command-line flags); returns the controls as read back.
    func applyConfiguredControls(device: String?) throws -> [CameraControl] {
        guard !configuration.controls.isEmpty else { return [] }
        guard let device else { throw CameraError.noDeviceControls(pipeline: pipelinePath) }
        let controls = try controls(of: device)
        return try configuration.controls.map { try controls.set($0.name, to: $0.value) }
    }
}
