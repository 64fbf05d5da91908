import Foundation
import GstCamera

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
        var out = ""
        var currentClass: String?? = .none
        for control in list {
            if currentClass != .some(control.className) {
                currentClass = .some(control.className)
                out += (out.isEmpty ? "" : "\n") + (control.className ?? "Controls") + "\n"
            }
            out += "  " + control.name.padded(nameWidth) + "  " + control.type.description.padded(7) + describe(control) + "\n"
            if !control.menu.isEmpty {
                let items = control.menu.map { item in
                    (control.value?.integer == item.index ? "*" : " ") + "\(item.index): \(item.name)"
                }
                out += String(repeating: " ", count: nameWidth + 13) + items.joined(separator: "   ") + "\n"
            }
        }
        return out
    }

    /// "0…255 step 1  default 128  value 153 (60%)  [inactive]".
    static func describe(_ control: CameraControl) -> String {
        var parts: [String] = []
        switch control.type {
        case .integer, .integer64, .menu, .integerMenu, .unsigned8, .unsigned16, .unsigned32:
            parts.append("\(control.minimum)…\(control.maximum)" + (control.step > 1 ? " step \(control.step)" : ""))
            parts.append("default \(control.defaultValue)")
        case .boolean:
            parts.append("default \(control.defaultValue != 0)")
        case .bitmask:
            parts.append("mask 0x\(String(control.maximum, radix: 16))")
            parts.append("default 0x\(String(control.defaultValue, radix: 16))")
        case .string:
            parts.append("length \(control.minimum)…\(control.maximum)")
        default:
            break
        }
        if control.value != nil || control.type != .button {
            var value = "value \(control.valueDescription)"
            if control.type == .bitmask, let number = control.value?.integer { value = "value 0x\(String(number, radix: 16))" }
            if let percent = control.percentage, control.type != .menu { value += " (\(Int(percent.rounded()))%)" }
            parts.append(value)
        }
        let flags = control.flags.names.filter { !["slider", "has-payload", "update", "execute-on-write"].contains($0) }
        if !flags.isEmpty { parts.append("[" + flags.joined(separator: ", ") + "]") }
        return parts.joined(separator: "  ")
    }
}

fileprivate extension String {
    func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
