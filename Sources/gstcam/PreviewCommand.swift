import GstCamera

/// `gstcam preview`: run the camera live, in a window with --sink, printing figures once a second.
enum PreviewCommand: Command {
    static let name = "preview"
    static let summary = "Show the camera live and print frame figures."
    static let usage = """
    USAGE: gstcam preview [--device CAMERA] [--pipeline FILE] [--sink ELEMENT] [--duration SECONDS] [options]

    OPTIONS:
      --sink ELEMENT         Also show the video with this GStreamer sink, e.g. autovideosink (a window).
      --duration SECONDS     Stop after this long (default: until Ctrl-C).
      --json                 Print the figures as JSON lines.
    \(CameraOptions.help)
    """

    static func run(_ arguments: inout Arguments) async throws {
        var camera = try CameraOptions(&arguments)
        camera.configuration.displaySink = try arguments.option("--sink")
        let duration = try arguments.double("--duration", minimum: 0)
        let json = arguments.flag("--json")
        try arguments.finish()

        let session = try CameraSession(configuration: try camera.sessionConfiguration())
        let interrupt = Interrupt { session.stop() }
        defer { session.stop() }
        try await session.start()
        try await camera.adjust(session)
        let clock = ContinuousClock()
        let started = clock.now
        var lastCount = session.frameCount
        var lastTime = started
        let deadline = duration.map { started + .milliseconds(Int($0 * 1000)) }
        while case .running = session.state {
            let next = min(lastTime + .seconds(1), deadline ?? lastTime + .seconds(1))
            try? await Task.sleep(until: next, clock: clock)
            guard case .running = session.state else { break }
            let now = clock.now
            let count = session.frameCount
            let fps = Double(count - lastCount) / max(0.001, (now - lastTime).seconds)
            let elapsed = (now - started).seconds
            if json {
                print(#"{"seconds":\#(rounded(elapsed)),"frames":\#(count),"fps":\#(rounded(fps))}"#)
            } else {
                print("\(formatted(elapsed)) s  frames \(count)  fps \(formatted(fps))")
            }
            lastCount = count
            lastTime = now
            if let deadline, now >= deadline { break }
        }
        if case .failed(let error) = session.state { throw error }
        if interrupt.didFire { throw ExitRequest(status: .interrupted) }
    }

    private static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    private static func formatted(_ value: Double) -> String { String(rounded(value)) }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    var milliseconds: Int { Int(seconds * 1000) }
}

/// Escapes a string for a JSON string literal.
func jsonEscaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case let c where c.value < 0x20:
            let hex = String(c.value, radix: 16)
            result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result
}
