import CameraErrors
/// The torch (the flash LED lit continuously), as a camera screen's torch button shows it.
public struct TorchState: Sendable, Equatable {
    public var isOn: Bool
    /// Brightness 0…1 of `flash_torch_intensity`'s range; nil when the camera has no intensity control.
    public var level: Double?
}

extension CameraControls {
    /// Whether the camera has a torch: `flash_led_mode` with a Torch item, or `flash_torch_intensity`.
    public var hasTorch: Bool {
        (try? torchControls()) != nil
    }

    /// Turns the torch on (at `level` 0…1 of the intensity range, when the camera has an intensity control;
    /// nil keeps the current intensity) or off, and returns the state read back.
    /// - Throws: `torchUnavailable` naming the device when it has neither control.
    @discardableResult
    public func setTorch(on: Bool, level: Double? = nil) throws(CameraError) -> TorchState {
        let (mode, intensity) = try torchControls()
        if let intensity, let level, on {
            try write(Self.value(atFraction: level, of: intensity), id: ControlID.flashTorchIntensity)
        }
        if let mode {
            try write(on ? FlashLEDMode.torch : FlashLEDMode.none, id: mode.id)
        } else if let intensity {
            // Without a mode control the intensity alone switches the LED: its minimum is off.
            let target = on ? (level.map { Self.value(atFraction: max($0, 0.01), of: intensity) } ?? intensity.maximum) : intensity.minimum
            try write(target, id: ControlID.flashTorchIntensity)
        }
        return try torchState()
    }

    /// The torch as the device reports it now.
    public func torchState() throws(CameraError) -> TorchState {
        let (mode, intensity) = try torchControls()
        let level = intensity.flatMap { control in control.value?.integer.map { Self.fraction(of: $0, in: control) } }
        if let mode {
            return TorchState(isOn: mode.value?.integer == FlashLEDMode.torch, level: level)
        }
        return TorchState(isOn: (intensity?.value?.integer ?? 0) > (intensity?.minimum ?? 0), level: level)
    }

    private func torchControls() throws(CameraError) -> (mode: CameraControl?, intensity: CameraControl?) {
        var mode = try control(id: ControlID.flashLEDMode)?.control
        if let candidate = mode, !candidate.menu.contains(where: { $0.index == FlashLEDMode.torch }) { mode = nil }
        let intensity = try control(id: ControlID.flashTorchIntensity)?.control
        if mode == nil && intensity == nil { throw .torchUnavailable(device: devicePath) }
        return (mode, intensity)
    }
}
