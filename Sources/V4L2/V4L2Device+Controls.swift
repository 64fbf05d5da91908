import CGStreamer
import Glibc
import CameraErrors

/// What VIDIOC_QUERY_EXT_CTRL says about one control.
public struct ControlQuery: Sendable, Hashable {
    public var id: UInt32
    public var type: ControlType
    /// The driver's name, e.g. "Focus, Automatic Continuous".
    public var label: String
    public var minimum: Int64
    public var maximum: Int64
    public var step: UInt64
    public var defaultValue: Int64
    public var flags: ControlFlags
    var elementSize: UInt32
    public var elements: UInt32
    /// An array control's dimensions (`dims[0..<nr_of_dims]`); empty for a single value.
    public var dimensions: [UInt32] = []
}

/// One VIDIOC_QUERYMENU answer: the name of a menu item, or the number of an integer-menu item.
public enum MenuItemLabel: Sendable, Hashable {
    case name(String)
    case number(Int64)
}

/// `which` values of VIDIOC_G_EXT_CTRLS. MIN/MAX are newer than Debian 12's header (Linux 6.x), hence local.
public enum ControlValueSet: UInt32, Sendable {
    case current = 0
    case `default` = 0x0f00_0000
    case minimum = 0x0f02_0000
    case maximum = 0x0f03_0000
}

extension V4L2Device {
    /// VIDIOC_QUERY_EXT_CTRL for `id`; with `next`, the first control after `id` (compound ones included).
    /// Returns nil when there is no such control (EINVAL), which ends an enumeration.
    public func queryControl(_ id: UInt32, next: Bool = false) throws(CameraError) -> ControlQuery? {
        var query = v4l2_query_ext_ctrl()
        query.id = next ? id | gstcam_ctrl_flag_next_ctrl() | gstcam_ctrl_flag_next_compound() : id
        if let code = ioctlErrno(gstcam_vidioc_query_ext_ctrl(), &query) {
            if code == EINVAL || code == ENOTTY { return nil }
            throw CameraError(errno: code, path: path, operation: "VIDIOC_QUERY_EXT_CTRL")
        }
        let dimensions = withUnsafeBytes(of: query.dims) { Array($0.bindMemory(to: UInt32.self)) }
        return ControlQuery(id: query.id, type: ControlType(rawValue: query.type), label: cString(query.name),
                            minimum: query.minimum, maximum: query.maximum, step: query.step,
                            defaultValue: query.default_value, flags: ControlFlags(rawValue: query.flags),
                            elementSize: query.elem_size, elements: query.elems,
                            dimensions: Array(dimensions.prefix(Int(min(query.nr_of_dims, 4)))))
    }

    /// Every control, in the driver's order (class headers included), skipping disabled ones.
    public func allControls() throws(CameraError) -> [ControlQuery] {
        var result: [ControlQuery] = []
        var id: UInt32 = 0
        while let query = try queryControl(id, next: true) {
            if !query.flags.contains(.disabled) { result.append(query) }
            // A driver that answers with an id not above the previous one would loop forever.
            guard query.id > id || id == 0 else { break }
            id = query.id
        }
        return result
    }

    /// VIDIOC_QUERYMENU for one item; nil when the driver skips that index (EINVAL), as menus may have holes.
    func menuItem(of control: ControlQuery, index: UInt32) throws(CameraError) -> MenuItemLabel? {
        var item = v4l2_querymenu()
        item.id = control.id
        item.index = index
        if let code = ioctlErrno(gstcam_vidioc_querymenu(), &item) {
            if code == EINVAL { return nil }
            throw CameraError(errno: code, path: path, operation: "VIDIOC_QUERYMENU")
        }
        if control.type == .integerMenu { return .number(item.value) }
        return .name(cString(item.name))
    }

    /// All items of a menu or integer-menu control, by index.
    public func menuItems(of control: ControlQuery) throws(CameraError) -> [(index: Int64, label: MenuItemLabel)] {
        guard control.type == .menu || control.type == .integerMenu,
              control.minimum >= 0, control.maximum >= control.minimum, control.maximum < 4096 else { return [] }
        var result: [(index: Int64, label: MenuItemLabel)] = []
        for index in control.minimum...control.maximum {
            if let label = try menuItem(of: control, index: UInt32(index)) { result.append((index, label)) }
        }
        return result
    }

    /// VIDIOC_G_EXT_CTRLS for one control. `nil` errno means success; the error is returned, not thrown, so the
    /// caller can name the control in the error it makes.
    public func readControl(_ control: ControlQuery, which: ControlValueSet = .current) -> Result<ControlValue, ControlIoctlFailure> {
        withControlPayload(control, value: nil) { extControl in
            var controls = v4l2_ext_controls()
            controls.which = which.rawValue
            controls.count = 1
            return withUnsafeMutablePointer(to: &extControl) { pointer in
                controls.controls = pointer
                if let code = ioctlErrno(gstcam_vidioc_g_ext_ctrls(), &controls) {
                    return .failure(ControlIoctlFailure(errno: code, errorIndex: controls.error_idx))
                }
                return .success(decodeValue(pointer.pointee, control: control))
            }
        }
    }

    /// VIDIOC_S_EXT_CTRLS for one control.
    public func writeControl(_ control: ControlQuery, value: ControlValue) -> Result<Void, ControlIoctlFailure> {
        withControlPayload(control, value: value) { extControl in
            var controls = v4l2_ext_controls()
            controls.which = ControlValueSet.current.rawValue
            controls.count = 1
            return withUnsafeMutablePointer(to: &extControl) { pointer in
                controls.controls = pointer
                if let code = ioctlErrno(gstcam_vidioc_s_ext_ctrls(), &controls) {
                    return .failure(ControlIoctlFailure(errno: code, errorIndex: controls.error_idx))
                }
                return .success(())
            }
        }
    }

    /// Builds a v4l2_ext_control for `control`, with a payload buffer for strings and compound types that
    /// lives as long as `body` runs.
    private func withControlPayload<T>(_ control: ControlQuery, value: ControlValue?,
                                       _ body: (inout v4l2_ext_control) -> T) -> T {
        var extControl = v4l2_ext_control()
        extControl.id = control.id
        switch control.type {
        case .string:
            // The size includes the terminating NUL; maximum is the longest string.
            var buffer = [CChar](repeating: 0, count: Int(max(control.maximum, 0)) + 1)
            if case let .string(text)? = value {
                for (offset, byte) in text.utf8.prefix(buffer.count - 1).enumerated() { buffer[offset] = CChar(bitPattern: byte) }
            }
            return buffer.withUnsafeMutableBufferPointer { storage in
                extControl.size = UInt32(storage.count)
                extControl.string = storage.baseAddress
                return body(&extControl)
            }
        case _ where control.flags.contains(.hasPayload):
            var buffer = [UInt8](repeating: 0, count: Int(control.elementSize) * Int(max(control.elements, 1)))
            switch value {
            case let .rectangle(rectangle)?: rectangle.write(into: &buffer)
            case let .array(array)?: buffer = array.payload(type: control.type, byteCount: buffer.count)
            case let .area(area)?: area.write(into: &buffer)
            case let .bytes(bytes)?: for (offset, byte) in bytes.prefix(buffer.count).enumerated() { buffer[offset] = byte }
            default: break
            }
            return buffer.withUnsafeMutableBufferPointer { storage in
                extControl.size = UInt32(storage.count)
                extControl.p_u8 = storage.baseAddress
                return body(&extControl)
            }
        case .integer64:
            if case let .integer(number)? = value { extControl.value64 = number }
            return body(&extControl)
        default:
            if case let .integer(number)? = value { extControl.value = Int32(truncatingIfNeeded: number) }
            return body(&extControl)
        }
    }

    private func decodeValue(_ extControl: v4l2_ext_control, control: ControlQuery) -> ControlValue {
        switch control.type {
        case .string:
            return .string(extControl.string.map { String(cString: $0) } ?? "")
        case _ where control.flags.contains(.hasPayload):
            guard let bytes = extControl.p_u8 else { return .bytes([]) }
            let copy = Array(UnsafeBufferPointer(start: bytes, count: Int(extControl.size)))
            if control.type == .rectangle, let rectangle = ControlRectangle(bytes: copy) { return .rectangle(rectangle) }
            if control.type == .area, let area = ControlArea(bytes: copy) { return .area(area) }
            let dimensions = control.dimensions.isEmpty ? [Int(max(control.elements, 1))] : control.dimensions.map(Int.init)
            if let array = ControlArray(payload: copy, type: control.type, dimensions: dimensions) { return .array(array) }
            return .bytes(copy)
        case .integer64:
            return .integer(extControl.value64)
        case .bitmask:
            return .integer(Int64(UInt32(bitPattern: extControl.value)))
        default:
            return .integer(Int64(extControl.value))
        }
    }
}

/// The errno and `error_idx` of a failed G/S_EXT_CTRLS, turned into a `CameraError` by the caller, which knows
/// the control's name.
public struct ControlIoctlFailure: Error, Sendable {
    public var errno: Int32
    var errorIndex: UInt32
}
