import FoundationEssentials
import GstCamera
import Reports
import Screen

/// `gstcam controls`: every V4L2 control of a camera, like `v4l2-ctl -L` but aligned, with ranges, percentages,
/// menus and flags spelled out.
enum ControlsCommand: Command {
    static let name = "controls"
    static let summary = "List a camera's controls with ranges, current values and menus"
    static let usage = """
    USAGE: gstcam controls [--device CAMERA] [--json]

    Lists every control of the camera: name (as `gstcam get/set` and v4l2-ctl take it), type, range and step,
    default, current value (with the menu item and the percentage of the range), menu items, and flags
    (inactive: an automatic mode overrides it; read-only; volatile: changes by itself). Works while another
    program streams from the camera. See docs/controls.md.

    OPTIONS:
      --device CAMERA  Index from `gstcam devices`, path (/dev/video2), stable id, or part of the name.
                       Default: the first camera.
      --json           Print a JSON array instead (format: docs/controls.md).
      -h, --help       Show this help.
    """

    static func run(_ arguments: inout Arguments) async throws {
        let device = try arguments.option("--device", "-d")
        let json = arguments.flag("--json")
        try arguments.finish()
        let controls = try CameraControls(cameraMatching: device)
        let list = try controls.all()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(list), as: UTF8.self))
            return
        }
        print(render(list, device: controls.devicePath), terminator: "")
    }

    static func render(_ list: [CameraControl], device: String) -> String {
        guard !list.isEmpty else { return "\(device) has no controls.\n" }
        let nameWidth = list.map(\.name.count).max() ?? 0
        let columns = list.map(describe)
        // Range and default line up in columns; value and flags follow.
        let rangeWidth = columns.map(\.range.count).max() ?? 0
        let defaultWidth = columns.map(\.default.count).max() ?? 0
        var out = ""
        var currentClass: String?? = .none
        for (control, column) in zip(list, columns) {
            if currentClass != .some(control.className) {
                currentClass = .some(control.className)
                out += (out.isEmpty ? "" : "\n") + PrintableText.escaping(control.className ?? "Controls") + "\n"
            }
            let line = "  " + control.name.padded(nameWidth) + "  " + control.type.description.padded(8)
                + column.range.padded(rangeWidth) + "  " + column.default.padded(defaultWidth) + "  " + column.value
            out += String(line.reversed().drop { $0 == " " }.reversed()) + "\n"
            if !control.menu.isEmpty {
                let items = control.menu.map { item in
                    (control.value?.integer == item.index ? "*" : "") + "\(item.index): \(PrintableText.escaping(item.name))"
                }
                out += String(repeating: " ", count: nameWidth + 12) + items.joined(separator: "   ") + "\n"
            }
        }
        return out
    }

    /// The columns of one control: "0…255 step 5", "default 128", "value 153 (60%)  [inactive]"; an array's
    /// range names its dimensions ("[8][16] 16…8192") and its value shows the first elements.
    static func describe(_ control: CameraControl) -> (range: String, default: String, value: String) {
        var range = "", defaultText = ""
        switch control.type {
        case .unsigned8, .unsigned16, .unsigned32:
            let dimensions = control.dimensions.map { "[\($0)]" }.joined()
            range = "\(dimensions) \(control.minimum)…\(control.maximum)" + (control.step > 1 ? " step \(control.step)" : "")
            defaultText = "default \(control.defaultValue)"
        case .integer, .integer64, .menu, .integerMenu:
            range = "\(control.minimum)…\(control.maximum)" + (control.step > 1 ? " step \(control.step)" : "")
            defaultText = "default \(control.defaultValue)"
        case .boolean:
            defaultText = "default \(control.defaultValue != 0)"
        case .bitmask:
            range = "mask 0x\(String(control.maximum, radix: 16))"
            defaultText = "default 0x\(String(control.defaultValue, radix: 16))"
        case .string:
            range = "length \(control.minimum)…\(control.maximum)"
        default:
            break
        }
        var parts: [String] = []
        if control.type != .button {
            var value = "value \(control.valueDescription)"
            if case let .array(array)? = control.value, array.elements.count > 8 {
                value = "value " + array.elements.prefix(8).map(String.init).joined(separator: " ")
                    + " … (\(array.elements.count) elements)"
            }
            if let percent = control.percentage { value += " (\(Int(percent.rounded()))%)" }
            parts.append(value)
        }
        // Flags that say nothing to a user (or, for a button, nothing new) are left out.
        let flags = control.flags.names.filter { flag in
            !["slider", "has-payload", "update", "execute-on-write"].contains(flag) && !(control.type == .button && flag == "write-only")
        }
        if !flags.isEmpty { parts.append("[" + flags.joined(separator: ", ") + "]") }
        return (range, defaultText, parts.joined(separator: "  "))
    }
}

fileprivate extension String {
    func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
