import Glibc
import CameraErrors
import V4L2

/// Every V4L2 control of one camera, by name, on a file descriptor of its own: it works whether or not a
/// pipeline streams from the camera (V4L2 lets any number of opens read and set controls while one streams).
///
///     let controls = try CameraControls(devicePath: "/dev/video0")
///     let applied = try controls.set("brightness", to: "60%")   // applied.value is what the driver kept
public final class CameraControls: Sendable {
    /// The device node, e.g. "/dev/video0".
    public let devicePath: String
    let device: V4L2Device
    /// A session's record of values to put back when it ends; nil for changes meant to last (`gstcam set`).
    let restorer: ControlRestorer?

    /// Opens `devicePath`; with a `restorer` (a session's), every write first records the control's earlier
    /// value there, to be put back when the session ends. Cameras are opened by selector through
    /// `CameraControls(cameraMatching:)` (module Cameras), which also lists the cameras when none matches.
    /// - Throws: `noSuchDevice`, `permissionDenied`, `notCaptureDevice`, `deviceGone`, …
    public init(devicePath: String, restorer: ControlRestorer? = nil) throws(CameraError) {
        self.devicePath = devicePath
        self.restorer = restorer
        device = try V4L2Device.open(devicePath)
        let identity = try device.queryCapabilities()
        guard identity.nodeCapabilities.capturesVideo else {
            throw .notCaptureDevice(path: devicePath, reason: identity.nodeCapabilities.kindDescription)
        }
    }

    /// Every control with its current value, in the driver's order (class headings are not controls; each
    /// control names its class in `className`). Disabled controls are left out.
    public func all() throws(CameraError) -> [CameraControl] {
        var result: [CameraControl] = []
        var className: String?
        for query in try device.allControls() {
            if query.type == .controlClass {
                className = query.label
                continue
            }
            // One control that cannot be read (some UVC cameras answer EIO for a few) must not hide the others.
            result.append(try describe(query, className: className, tolerateReadErrors: true))
        }
        return result
    }

    /// One control by name (v4l2-ctl's form; "Brightness", "focus-absolute" and a 0x… id are accepted too).
    /// - Throws: `controlUnknown` with close names.
    public func control(named name: String) throws(CameraError) -> CameraControl {
        try describe(try query(named: name).query, className: nil)
    }

    /// Throws what `set(_:to:)` would throw for a name or value before anything is written (unknown name,
    /// read-only, a value the control cannot take), so several settings can be checked before any is made.
    /// The driver may still refuse a checked value (an inactive control).
    public func check(_ name: String, value text: String) throws(CameraError) {
        let control = try describe(try query(named: name).query, className: nil)
        guard control.type != .controlClass, !control.flags.contains(.readOnly) else {
            throw .controlReadOnly(name: control.name, device: devicePath)
        }
        _ = try ControlValueParser.parse(text, for: control)
    }

    /// Sets a control from text — a number, "60%", a menu item name, true/false — and returns the control as
    /// read back afterwards, so `value` is what the driver actually applied.
    /// - Throws: `controlUnknown`, `controlReadOnly`, `controlOutOfRange` (with the range), `controlBadValue`,
    ///   `controlInactive` (when the driver refuses because an automatic mode overrides the control).
    @discardableResult
    public func set(_ name: String, to text: String) throws(CameraError) -> CameraControl {
        let (control, query) = try writableControl(named: name)
        let value = try ControlValueParser.parse(text, for: control)
        return try write(value, to: control, query: query, asTyped: PrintableText.escaping(text))
    }

    /// The control a write names, described; `controlReadOnly` for class headings and read-only controls.
    private func writableControl(named name: String) throws(CameraError) -> (CameraControl, ControlQuery) {
        let found = try query(named: name)
        let control = try describe(found.query, className: nil)
        guard control.type != .controlClass, !control.flags.contains(.readOnly) else {
            throw .controlReadOnly(name: control.name, device: devicePath)
        }
        return (control, found.query)
    }

    /// Sets a control to a value (a menu's value is the item index) and returns it as read back.
    @discardableResult
    public func set(_ name: String, to value: ControlValue) throws(CameraError) -> CameraControl {
        let (control, query) = try writableControl(named: name)
        if let number = value.integer, !control.menu.isEmpty, !control.menu.contains(where: { $0.index == number }) {
            throw ControlValueParser.notMenuItem(String(number), for: control)
        }
        if let number = value.integer, control.type != .button, control.type != .bitmask,
           number < control.minimum || number > control.maximum {
            throw .controlOutOfRange(name: control.name, value: String(number), minimum: control.minimum,
                                     maximum: control.maximum, step: Int64(clamping: control.step))
        }
        return try write(value, to: control, query: query, asTyped: value.description)
    }

    // MARK: - Internals shared with the feature controls (torch, focus, …)

    /// The control with this id, or nil when the camera lacks it.
    func query(id: UInt32) throws(CameraError) -> ControlQuery? {
        guard let query = try device.queryControl(id), query.id == id, !query.flags.contains(.disabled) else { return nil }
        return query
    }

    func describe(_ query: ControlQuery, className: String?, tolerateReadErrors: Bool = false) throws(CameraError) -> CameraControl {
        var menu: [ControlMenuItem] = []
        for (index, label) in try device.menuItems(of: query) {
            switch label {
            case let .name(text): menu.append(ControlMenuItem(index: index, name: text))
            case let .number(number): menu.append(ControlMenuItem(index: index, name: String(number)))
            }
        }
        var value: ControlValue?
        let readable = query.type != .button && query.type != .controlClass && !query.flags.contains(.writeOnly)
        if readable {
            switch device.readControl(query) {
            case let .success(read): value = read
            case let .failure(failure):
                // EACCES: a write-only control the flags did not announce; anything else is a device problem,
                // which a listing shows as an unknown value unless the device is gone.
                let gone = failure.errno == ENODEV || failure.errno == ENXIO
                if failure.errno != EACCES && (!tolerateReadErrors || gone) {
                    throw CameraError(errno: failure.errno, path: devicePath, operation: "VIDIOC_G_EXT_CTRLS")
                }
            }
        }
        return CameraControl(query: query, value: value, menu: menu, className: className)
    }

    /// Writes, maps S_EXT_CTRLS's errno to what the person can act on, and reads the control back.
    func write(_ value: ControlValue, to control: CameraControl, query: ControlQuery, asTyped: String) throws(CameraError) -> CameraControl {
        restorer?.noteBeforeWrite(device: devicePath, query: query, current: control.value)
        if case let .failure(failure) = device.writeControl(query, value: value) {
            throw Self.error(for: failure.errno, control: control, device: devicePath, asTyped: asTyped)
        }
        return try describe(query, className: control.className)
    }

    /// The error a person can act on for S_EXT_CTRLS's errno.
    static func error(for code: Int32, control: CameraControl, device devicePath: String, asTyped: String) -> CameraError {
        switch code {
        case ERANGE:
            return .controlOutOfRange(name: control.name, value: asTyped, minimum: control.minimum,
                                      maximum: control.maximum, step: Int64(clamping: control.step))
        case EACCES, EPERM:
            // Drivers answer EACCES both for read-only controls and (uvcvideo) for ones an automatic mode owns.
            return control.flags.contains(.inactive) ? .controlInactive(name: control.name, device: devicePath)
                : .controlReadOnly(name: control.name, device: devicePath)
        case EBUSY:
            return control.flags.contains(.inactive) || control.flags.contains(.grabbed)
                ? .controlInactive(name: control.name, device: devicePath)
                : .deviceBusy(path: devicePath, holder: nil)
        case EINVAL:
            if !control.menu.isEmpty { return ControlValueParser.notMenuItem(asTyped, for: control) }
            if control.type == .area {
                return .controlBadValue(name: control.name, value: asTyped, expected: "WIDTHxHEIGHT, both above 0")
            }
            return .controlBadValue(name: control.name, value: asTyped, expected: "a value in \(control.minimum)…\(control.maximum)")
        default:
            return CameraError(errno: code, path: devicePath, operation: "VIDIOC_S_EXT_CTRLS")
        }
    }

    private func query(named name: String) throws(CameraError) -> (query: ControlQuery, all: [ControlQuery]) {
        let all = try device.allControls().filter { $0.type != .controlClass }
        let wanted = ControlName.from(label: name)
        if let match = all.first(where: { ControlName.from(label: $0.label) == wanted && !wanted.isEmpty }) {
            return (match, all)
        }
        if name.lowercased().hasPrefix("0x"), let id = UInt32(name.dropFirst(2), radix: 16),
           let match = all.first(where: { $0.id == id }) {
            return (match, all)
        }
        let names = all.map { ControlName.from(label: $0.label) }
        // The name is echoed: a control character typed (or pasted) in it must not reach the terminal raw.
        throw .controlUnknown(name: PrintableText.escaping(name), device: devicePath,
                              suggestions: ControlName.suggestions(for: name, among: names))
    }
}
