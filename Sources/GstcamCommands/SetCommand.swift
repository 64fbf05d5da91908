import GstCamera
import LinuxSystem
import Reports
import Screen

/// `gstcam set NAME=VALUE…`: change controls and print what the camera actually applied.
enum SetCommand: Command {
    static let name = "set"
    static let summary = "Set camera controls by name (value, percentage, menu item, true/false)"
    static let usage = """
    USAGE: gstcam set [--device CAMERA] NAME=VALUE [NAME=VALUE…]

    Checks every NAME=VALUE first and sets nothing when one is wrong (unknown name, out of range, read-only);
    then sets each control in order and prints it as read back from the camera, so you see what was applied.
    VALUE is a number (128, -3, 0x1f), a percentage of the control's range (60%), a menu item by name or
    index (manual_mode or 1), true/false (on/off) for a switch, text for a string control, numbers separated
    by spaces for an array (one number sets every element), anything for a button (pressing it). A control the driver still refuses
    (inactive while an automatic mode owns it) stops the command there; the ones before it stay set.
    See docs/controls.md.

    OPTIONS:
      --device CAMERA  Index from `gstcam devices`, path, stable id, or part of the name. Default: the first camera.
      -h, --help       Show this help.

    EXAMPLES:
      gstcam set brightness=60%
      gstcam set --device 1 auto_exposure=manual_mode exposure_time_absolute=200
    """

    static func run(_ arguments: inout Arguments) async throws {
        let device = try arguments.option("--device", "-d")
        let items = try arguments.positionals()
        // `set brightness 200` is a natural first try: show how to write it, not only that it is wrong.
        for (name, value) in zip(items, items.dropFirst()) where !name.contains("=") && !value.contains("=") {
            throw UsageError("\"\(PrintableText.escaping(name)) \(PrintableText.escaping(value))\": write NAME=VALUE "
                + "without spaces, as in gstcam set \(PrintableText.escaping(name))=\(PrintableText.escaping(value))")
        }
        let assignments = try items.map(CameraOptions.assignment)
        guard !assignments.isEmpty else { throw UsageError("give at least one NAME=VALUE (see gstcam controls)") }
        let controls = try CameraControls(cameraMatching: device)
        // All or nothing as far as can be known beforehand: `brightness=60% zoom_absolute=3` must not leave the
        // brightness changed when 3 is out of the zoom's range.
        for (name, value) in assignments { try controls.check(name, value: value) }
        for (name, value) in assignments {
            let applied = try controls.set(name, to: value)
            if applied.type == .button {
                print("\(applied.name): pressed")
                continue
            }
            var line = "\(applied.name)=\(applied.valueDescription)"
            let filledWithAsked: Bool = if case let .array(array)? = applied.value {
                array.elements.allSatisfy { String($0) == value.trimmingWhitespace }
            } else { false }
            if applied.value?.description != value && applied.valueDescription != value && !filledWithAsked {
                line += "  (asked \(PrintableText.escaping(value)))"
            }
            print(line)
        }
    }
}
