import FoundationEssentials
import GstCamera
import Reports
import Screen

/// `gstcam get NAME…`: current values of controls.
enum GetCommand: Command {
    static let name = "get"
    static let summary = "Print the current value of camera controls"
    static let usage = """
    USAGE: gstcam get [--device CAMERA] [--json] NAME [NAME…]

    Prints NAME=VALUE for each control (a menu's value is followed by its item in parentheses). Names are the
    ones `gstcam controls` lists; an unknown name is an error that suggests close ones (exit 1).

    OPTIONS:
      --device CAMERA  Index from `gstcam devices`, path, stable id, or part of the name. Default: the first camera.
      --json           Print a JSON array of the controls instead (format: docs/controls.md).
      -h, --help       Show this help.

    EXAMPLE:
      gstcam get brightness auto_exposure
    """

    static func run(_ arguments: inout Arguments) async throws {
        let device = try arguments.option("--device", "-d")
        let json = arguments.flag("--json")
        let names = try arguments.positionals()
        guard !names.isEmpty else { throw UsageError("name at least one control (see gstcam controls)") }
        let controls = try CameraControls(cameraMatching: device)
        var found: [CameraControl] = []
        for name in names { found.append(try controls.control(named: name)) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(found), as: UTF8.self))
        } else {
            for control in found { print("\(control.name)=\(control.valueDescription)") }
        }
    }
}
