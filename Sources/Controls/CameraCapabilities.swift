import CameraErrors
/// What a camera screen can offer for this camera, so a UI greys out the rest.
public struct CameraCapabilities: Sendable, Equatable {
    /// Optical zoom through `zoom_absolute`; nil when there is none (digital zoom is the pipeline's).
    public var opticalZoom: OpticalZoom?
    public var torch: Bool
    /// A flash LED for photos (`flash_led_mode` with a Flash item).
    public var flash: Bool
    public var continuousFocus: Bool
    public var manualFocus: Bool
    public var oneShotFocus: Bool
    /// Focus (and exposure) at a point through the UVC region-of-interest controls.
    public var pointFocus: Bool
    public var automaticExposure: Bool
    /// Manual exposure time range in seconds.
    public var manualExposure: ClosedRange<Double>?
}

extension CameraControls {
    public func capabilities() throws(CameraError) -> CameraCapabilities {
        let focus = try focusModes()
        let exposure = try exposureCapabilities()
        let features = try ControlSummary(device: device)
        return CameraCapabilities(opticalZoom: try opticalZoom(), torch: features.torch, flash: features.flash,
                                  continuousFocus: focus.continuous, manualFocus: focus.manual, oneShotFocus: focus.once,
                                  pointFocus: focus.point, automaticExposure: exposure.automatic, manualExposure: exposure.manual)
    }
}
