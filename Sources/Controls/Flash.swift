import CameraErrors
extension CameraControls {
    /// Whether the camera has a flash LED (`led_mode` with a Flash item and a `strobe` button).
    public var hasFlash: Bool {
        (try? flashMode()) != nil && (try? query(id: ControlID.flashStrobe)) != nil
    }

    /// Arms the flash LED for photos (`led_mode` = Flash) or turns it off (None); a capture then calls `strobe()`
    /// just before the frame it keeps. Arming turns the torch off, as the LED has one mode at a time.
    /// - Throws: `flashUnavailable` naming the device.
    public func setFlash(armed: Bool) throws(CameraError) {
        let mode = try flashMode()
        guard try query(id: ControlID.flashStrobe) != nil else { throw .flashUnavailable(device: devicePath) }
        try write(armed ? FlashLEDMode.flash : FlashLEDMode.none, id: mode.id)
    }

    /// Fires the flash once (`strobe`), arming it first if needed.
    /// - Throws: `flashUnavailable` naming the device.
    public func strobe() throws(CameraError) {
        let mode = try flashMode()
        guard try query(id: ControlID.flashStrobe) != nil else { throw .flashUnavailable(device: devicePath) }
        if mode.value?.integer != FlashLEDMode.flash { try write(FlashLEDMode.flash, id: mode.id) }
        try write(1, id: ControlID.flashStrobe)
    }

    private func flashMode() throws(CameraError) -> CameraControl {
        guard let mode = try control(id: ControlID.flashLEDMode)?.control,
              mode.menu.contains(where: { $0.index == FlashLEDMode.flash }) else { throw .flashUnavailable(device: devicePath) }
        return mode
    }
}
