/// Which camera features the device's controls offer, in short (for camera lists; `CameraCapabilities` has the
/// ranges and modes a camera screen needs).
public struct ControlSummary: Sendable, Hashable, Codable {
    /// Optical zoom (`zoom_absolute` or `zoom_continuous`).
    public var zoom: Bool = false
    /// Manual lens position (`focus_absolute`).
    public var manualFocus: Bool = false
    /// Continuous auto focus (`focus_automatic_continuous`).
    public var autoFocus: Bool = false
    /// One-shot auto focus (`auto_focus_start`).
    public var oneShotFocus: Bool = false
    /// A torch (`flash_led_mode` with a Torch item, or `flash_torch_intensity`).
    public var torch: Bool = false
    /// A flash LED (`flash_led_mode` with a Flash item).
    public var flash: Bool = false
    /// Exposure modes (`auto_exposure`).
    public var exposure: Bool = false
    /// UVC region of interest (point focus/exposure).
    public var regionOfInterest: Bool = false
    /// How many controls the device has in all (class headings excluded).
    public var controlCount: Int = 0

    public init() {}
}
