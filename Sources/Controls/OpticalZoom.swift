import CameraErrors
/// The optical zoom of a camera with `zoom_absolute`, and how its control values map to zoom factors.
///
/// UVC defines `zoom_absolute` as the objective's focal length in device units, so the ratio of two values is
/// the ratio of their magnifications: factor = value / minimum, and the widest setting (the minimum) is 1×.
/// When the minimum is 0 or negative that ratio is meaningless; then the range maps linearly onto
/// 1…`assumedMaximumFactor` (2×). In both cases: factor = 1 + (value − min) / (max − min) × (maximumFactor − 1).
public struct OpticalZoom: Sendable, Equatable {
    public var controlMinimum: Int64
    public var controlMaximum: Int64
    public var step: UInt64
    /// The factor at the control's maximum.
    public var maximumFactor: Double

    /// Used when the control's range does not start above zero.
    public static let assumedMaximumFactor = 2.0

    init(control: CameraControl) {
        controlMinimum = control.minimum
        controlMaximum = control.maximum
        step = control.step
        maximumFactor = control.minimum > 0 ? Double(control.maximum) / Double(control.minimum) : Self.assumedMaximumFactor
    }

    /// The control value for `factor`, clamped to 1…maximumFactor and snapped to the step grid.
    public func controlValue(for factor: Double) -> Int64 {
        guard controlMaximum > controlMinimum, maximumFactor > 1 else { return controlMinimum }
        let fraction = (min(max(factor, 1), maximumFactor) - 1) / (maximumFactor - 1)
        return ControlValueParser.value(atPercent: fraction * 100, minimum: controlMinimum, maximum: controlMaximum, step: step)
    }

    /// The factor a control value gives.
    public func factor(for value: Int64) -> Double {
        guard controlMaximum > controlMinimum else { return 1 }
        return 1 + Double(value - controlMinimum) / Double(controlMaximum - controlMinimum) * (maximumFactor - 1)
    }
}

extension CameraControls {
    /// The optical zoom, or nil when the camera has no `zoom_absolute`.
    public func opticalZoom() throws(CameraError) -> OpticalZoom? {
        try control(id: ControlID.zoomAbsolute).map { OpticalZoom(control: $0.control) }
    }

    /// Sets the optical zoom to `factor` (clamped to 1…maximumFactor) and returns the factor read back.
    /// - Throws: `zoomUnavailable` when the camera has no `zoom_absolute`.
    @discardableResult
    public func setOpticalZoom(factor: Double) throws(CameraError) -> Double {
        guard let found = try control(id: ControlID.zoomAbsolute) else { throw .zoomUnavailable(device: devicePath) }
        let zoom = OpticalZoom(control: found.control)
        let target = zoom.controlValue(for: factor)
        // Already there (every session start asks for 1×): no write, so nothing for a restorer to put back.
        if found.control.value?.integer == target { return zoom.factor(for: target) }
        let applied = try write(.integer(target), to: found.control, query: found.query, asTyped: String(target))
        return zoom.factor(for: applied.value?.integer ?? target)
    }
}
