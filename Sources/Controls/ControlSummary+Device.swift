import CameraErrors
import V4L2
extension ControlSummary {
    /// Reads which features the device's controls offer.
    public init(device: V4L2Device) throws(CameraError) {
        self.init()
        let controls = try device.allControls().filter { $0.type != .controlClass }
        let ids = Set(controls.map(\.id))
        controlCount = controls.count
        zoom = ids.contains(ControlID.zoomAbsolute) || ids.contains(ControlID.zoomContinuous)
        manualFocus = ids.contains(ControlID.focusAbsolute)
        autoFocus = ids.contains(ControlID.focusAuto)
        oneShotFocus = ids.contains(ControlID.autoFocusStart)
        exposure = ids.contains(ControlID.exposureAuto) || ids.contains(ControlID.exposureAbsolute)
        regionOfInterest = ids.contains(ControlID.regionOfInterestRectangle)
        torch = ids.contains(ControlID.flashTorchIntensity)
        if let ledMode = controls.first(where: { $0.id == ControlID.flashLEDMode }) {
            let items = try device.menuItems(of: ledMode).map(\.index)
            torch = torch || items.contains(FlashLEDMode.torch)
            flash = items.contains(FlashLEDMode.flash)
        }
    }
}

/// Items of V4L2_CID_FLASH_LED_MODE.
enum FlashLEDMode {
    static let none: Int64 = 0
    static let flash: Int64 = 1
    static let torch: Int64 = 2
}
