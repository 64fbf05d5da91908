import CameraErrors
import V4L2

/// Shared plumbing of the feature controls (torch, focus, exposure, zoom): controls by id rather than by name,
/// since drivers name them differently but the ids are fixed.
extension CameraControls {
    /// The control with this id, described, or nil when the camera lacks it.
    func control(id: UInt32) throws(CameraError) -> (control: CameraControl, query: ControlQuery)? {
        guard let query = try query(id: id) else { return nil }
        return (try describe(query, className: nil), query)
    }

    /// The control with this id as it is now, or nil when the camera lacks it.
    public func control(withID id: UInt32) throws(CameraError) -> CameraControl? {
        try control(id: id)?.control
    }

    /// Writes a value by id (errno mapped as for `set`) and returns the control as read back.
    @discardableResult
    public func write(_ value: Int64, id: UInt32) throws(CameraError) -> CameraControl? {
        guard let found = try control(id: id) else { return nil }
        return try write(.integer(value), to: found.control, query: found.query, asTyped: String(value))
    }

    /// The value `fraction` (0…1) of the way through the control's range, on its step grid.
    static func value(atFraction fraction: Double, of control: CameraControl) -> Int64 {
        ControlValueParser.value(atPercent: min(1, max(0, fraction)) * 100, minimum: control.minimum,
                                 maximum: control.maximum, step: control.step)
    }

    /// Where `value` sits in the control's range, 0…1.
    static func fraction(of value: Int64, in control: CameraControl) -> Double {
        control.maximum > control.minimum ? Double(value - control.minimum) / Double(control.maximum - control.minimum) : 0
    }
}
