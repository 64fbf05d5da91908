import FoundationEssentials
import Glibc
import GstCamera
import LinuxSystem
import Reports
import Screen

/// `gstcam scan`: read QR codes and barcodes shown to the camera (GStreamer's zbar on a small branch).
enum ScanCommand: Command {
    static let name = "scan"
    static let summary = "Read QR codes and barcodes shown to the camera; print each new one."
    static let usage = """
    USAGE: gstcam scan [--once] [--json] [--duration SECONDS] [--device CAMERA] [options]

    Opens the camera and reads the codes it sees (QR codes, EAN/UPC, Code 128, … — whatever zbar reads) from
    a small grey copy of the picture at most 5 times a second. Each new code's text is printed once, on a
    line of its own, as it is read; the camera stays open until Ctrl-C, --duration or, with --once, the first
    code. Example: url=$(gstcam scan --once)

    OPTIONS:
      --once                 Exit after the first code (status 0).
      --json                 Print {"type":"QR-Code","text":"…"} per code.
      --duration SECONDS     Stop after this long; exit status 1 if no code was read.
    \(CameraOptions.help)
    """

    static func run(_ arguments: inout Arguments) async throws {
        var camera = try CameraOptions(&arguments)
        let once = arguments.flag("--once")
        let json = arguments.flag("--json")
        let duration = try arguments.double("--duration", minimum: 0)
        try arguments.finish()
        let choice = try camera.modeChoice(for: .preview)
        camera.configuration = choice.configuration
        let session = try CameraSession(configuration: choice.configuration, camera: choice.camera)
        let interrupt = Interrupt { session.stop() }
        defer { session.stop() }
        try await session.start()
        try await camera.adjust(session)
        let scanner = try CodeScanner.start(on: session)
        defer { scanner.stop() }
        let codes = scanner.codes()
        let timer = duration.map { seconds in
            Task {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                scanner.stop()
            }
        }
        defer { timer?.cancel() }
        // The session's events end when it stops or fails (Ctrl-C, an unplugged camera): so does the scan.
        let events = session.events()
        let watch = Task {
            for await _ in events {}
            scanner.stop()
        }
        defer { watch.cancel() }
        var read = 0
        for await code in codes {
            read += 1
            print(json ? JSONOutput.line(CodeRecord(type: code.type, text: code.text)) : code.text)
            fflush(nil)
            if once { break }
        }
        if interrupt.didFire { throw ExitRequest(status: .interrupted) }
        if case let .failed(error) = session.state { throw error }
        if let failure = scanner.failure, read == 0 { throw CameraError.streamingFailed(source: "scan.decoder", detail: failure) }
        if read == 0 {
            Standard.error.write("gstcam: no code was read in \(duration ?? 0) s\n")
            throw ExitRequest(status: .failure)
        }
    }
}
