import GstCamera
import LinuxSystem
import Reports
import Screen

/// The options every camera command shares: which camera, which pipeline, which size and rate, and the
/// camera settings to apply once it runs.
package struct CameraOptions {
    package static let help = """
      --device, --camera CAMERA
                             The camera: a path (/dev/video2), an index from `gstcam devices` (0, 1, …),
                             a stable id, or part of its name. Default: the first camera.
      --pipeline FILE        A pipeline file, or the name of one in pipelines/ (default, mjpeg, bayer,
                             test-pattern). Default: the one for the chosen mode's format (raw: default,
                             Motion-JPEG: mjpeg, Bayer: bayer); a named one limits the modes to its kind.
      --width W, --height H  Frame size: the camera's nearest size is used (a line on stderr says which).
                             Default: the preview's best mode up to 1920x1080 at 15-30 fps; for a photo the
                             largest size the camera offers. `--width max` (or --height max) takes the largest.
      --fps F                Frames per second: 30, 12.5, 29.97 or a fraction such as 30000/1001; the nearest
                             rate the camera has is used. Default: up to 30 (the preview), any ≥ 1 (a photo).
      --zoom FACTOR          Zoom, optical first where the camera has it, then digital up to 8× more
                             (e.g. 2.5); a factor past the largest is clamped to it.
      --rotate 0|180         Turn the picture half round, for a camera mounted upside down: the preview,
                             photos, videos and the network all get it turned (a quarter turn is not offered).
      --mirror               Mirror the picture left to right (a selfie view; with --rotate 180, upside down).
      --torch on|off         The camera's torch (flash LED on continuously).
      --focus MODE           auto (continuous), manual:POSITION (0…1), once, or point:X,Y (0…1 each; also
                             sets the exposure point).
      --exposure MODE        auto, or manual:SECONDS (e.g. manual:0.01).
      --set NAME=VALUE       Any control, as `gstcam set` takes it (repeatable; e.g. --set brightness=60%).
      --stall-timeout SECONDS
                             Fail when the camera sends no frame for this long (default 5; 0: never, only warn).
    The mode used (size, rate, format) is printed to stderr ("Mode: …"); docs/modes.md gives the rule.
    Settings are applied when the camera starts; each is printed (to stderr) as the camera applied it.
    """

    package var configuration = CameraConfiguration()
    /// --width, --height and --fps as given: the mode asked for (nil: the purpose's default).
    var width: Int?
    var height: Int?
    var frameRate: FrameRate?
    /// Whether --pipeline was given: then the mode is chosen among that file's kind, else the file follows the mode.
    var pipelineNamed = false
    var zoom: Double?
    var torch: Bool?
    var focus: FocusRequest?
    var exposure: ExposureMode?
    /// --width/--height max: the largest size, resolved against the camera by `modeChoice(for:)`.
    var largestSize = false
    /// The camera --device names, once `findCamera()` has probed it: the later steps use it instead of
    /// probing it again (nil: not looked for yet, or not found, and then each step looks and says why).
    var foundCamera: Camera?

    enum FocusRequest: Equatable {
        case mode(FocusMode)
        case point(NormalizedPoint)
    }

    package init(_ arguments: inout Arguments) throws {
        configuration.device = try arguments.option("--device", "--camera")
        if let pipeline = try arguments.option("--pipeline") {
            configuration.pipeline = pipeline
            pipelineNamed = true
        }
        for name in ["--width", "--height"] {
            var probe = arguments
            if try probe.option(name) == "max" {
                largestSize = true
                arguments = probe
            }
        }
        width = try arguments.int("--width", minimum: 16)
        height = try arguments.int("--height", minimum: 16)
        frameRate = try arguments.option("--fps", as: "a frame rate such as 30, 12.5 or 30000/1001") { FrameRate($0) }
        zoom = try arguments.double("--zoom", minimum: 1)
        let rotation = try arguments.option("--rotate", as: "0 or 180 (a quarter turn would swap the width and height)") {
            ["0": false, "180": true, "360": false][$0]
        }
        configuration.orientation = FrameOrientation(rotated180: rotation ?? false, mirrored: arguments.flag("--mirror"))
        torch = try arguments.option("--torch", as: "on or off") { ["on": true, "off": false][$0.lowercased()] }
        focus = try arguments.option("--focus", as: "auto, manual:POSITION, once or point:X,Y", Self.parseFocus)
        exposure = try arguments.option("--exposure", as: "auto or manual:SECONDS", Self.parseExposure)
        configuration.controls = try arguments.options("--set").map { setting in
            let (name, value) = try Self.assignment(setting)
            return ControlSetting(name: name, value: value)
        }
        if let seconds = try arguments.double("--stall-timeout", minimum: 0) {
            configuration.stallTimeout = seconds == 0 ? nil : .milliseconds(Int(seconds * 1000))
        }
    }

    /// NAME=VALUE, as `gstcam set` and `--set` take it.
    static func assignment(_ item: String) throws(UsageError) -> (name: String, value: String) {
        guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
            throw UsageError("\"\(PrintableText.escaping(item))\" is not NAME=VALUE")
        }
        return (String(item[..<equals]), String(item[item.index(after: equals)...]))
    }

    /// The camera's mode for `purpose` and what was asked (docs/modes.md), printed to stderr ("Mode: …"), and the
    /// configuration that opens it.
    package func modeChoice(for purpose: ModePurpose) throws -> ModeChoice {
        let request = largestSize ? ModeRequest(frameRate: frameRate, purpose: .photo)
            : ModeRequest(width: width, height: height, frameRate: frameRate, purpose: purpose)
        let choice = try configuration.choosingMode(request, keepPipeline: pipelineNamed, camera: foundCamera)
        if choice.mode == nil, largestSize {
            throw CameraError.negotiationFailed(device: nil,
                detail: "the pipeline \(configuration.pipeline) opens no camera, so there is no largest size to take")
        }
        if choice.mode != nil { note(choice.summary) }
        return choice
    }

    /// Probes the camera --device names once for the steps of this command (`foundCamera`).
    mutating func findCamera() {
        foundCamera = configuration.probedCamera()
    }

    static func parseFocus(_ text: String) -> FocusRequest? {
        let lowered = text.lowercased()
        switch lowered {
        case "auto", "continuous": return .mode(.continuous)
        case "once": return .mode(.once())
        default: break
        }
        if lowered.hasPrefix("manual:"), let position = Double(lowered.dropFirst(7)), (0...1).contains(position) {
            return .mode(.manual(position: position))
        }
        if lowered.hasPrefix("point:") {
            let parts = lowered.dropFirst(6).split(separator: ",").compactMap { Double($0) }
            if parts.count == 2, parts.allSatisfy({ (0...1).contains($0) }) { return .point(NormalizedPoint(x: parts[0], y: parts[1])) }
        }
        return nil
    }

    static func parseExposure(_ text: String) -> ExposureMode? {
        let lowered = text.lowercased()
        if lowered == "auto" { return .automatic }
        if lowered.hasPrefix("manual:"), let seconds = Double(lowered.dropFirst(7)), seconds > 0 { return .manual(seconds: seconds) }
        return nil
    }

    /// Applies --zoom, --torch, --focus and --exposure to the started session and prints what each became.
    package func adjust(_ session: CameraSession) async throws {
        for control in configuration.controls {
            let applied = try session.controls().control(named: control.name)
            note("\(applied.name)=\(applied.valueDescription)  (asked \(control.value))")
        }
        if let zoom {
            note("Zoom: \(try session.setZoom(Zoom(factor: zoom)))")
        }
        if let torch {
            let state = try session.controls().setTorch(on: torch)
            note("Torch: " + (state.isOn ? "on" + (state.level.map { " (level \(Int(($0 * 100).rounded()))%)" } ?? "") : "off"))
        }
        switch focus {
        case .mode(let mode)?:
            note("Focus: " + Self.describe(try await session.controls().setFocus(mode)))
        case .point(let point)?:
            let controls = try session.controls()
            // The point is where it shows in the (turned) picture; the camera's region is in its own.
            let result = try await controls.focus(at: session.configuration.orientation.unturned(point))
            // Asked for a point and given nothing (no region of interest, no one-shot focus): a failure, as
            // --torch on a camera without one is.
            if result.method == .none { throw CameraError.focusUnavailable(device: controls.devicePath) }
            note("Focus: point (\(point.x), \(point.y)) by \(result.method.rawValue)"
                + (result.rectangle.map { " (the camera's region \($0.description))" } ?? "")
                + (result.exposurePoint ? ", exposure point set" : "") + (result.focus.map { ", " + Self.describe($0) } ?? ""))
        case nil:
            break
        }
        if let exposure {
            switch try session.controls().setExposure(exposure) {
            case .automatic: note("Exposure: auto")
            case .manual(let seconds): note("Exposure: manual \(seconds) s")
            }
        }
    }

    static func describe(_ result: FocusResult) -> String {
        switch result {
        case .continuous: return "continuous auto focus"
        case .manual(let position): return "manual, lens at \((position * 100).rounded() / 100)"
        case .reached: return "focused once (reached)"
        case .failed: return "focus once failed"
        case .timedOut: return "focus once timed out"
        }
    }

    private func note(_ line: String) {
        Standard.error.write(line + "\n")
    }
}
