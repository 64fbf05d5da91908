import GstCamera

/// `gstcam capture`: open the camera, let exposure settle, take one photo, close.
enum CaptureCommand: Command {
    static let name = "capture"
    static let summary = "Take a photo."
    static let usage = """
    USAGE: gstcam capture -o FILE [--device CAMERA] [--pipeline FILE] [--warmup N] [options]

    OPTIONS:
      -o, --output FILE      Where to write the JPEG. The file appears whole or not at all.
      --overwrite            Replace FILE if it exists (otherwise an existing file is an error).
      --warmup N             Frames to let pass first so exposure and white balance settle (default 15;
                             0 takes the first frame).
      --quality Q            JPEG quality 1…100 (default 85).
      --json                 Print the result as JSON.
    \(CameraOptions.help)
    """

    static func run(_ arguments: inout Arguments) async throws {
        var camera = try CameraOptions(&arguments)
        let output = try arguments.option("-o", "--output")
        let overwrite = arguments.flag("--overwrite")
        let warmup = try arguments.int("--warmup", minimum: 0) ?? 15
        if let quality = try arguments.option("--quality", as: "a quality from 1 to 100", { Int($0).flatMap { (1...100).contains($0) ? $0 : nil } }) {
            camera.configuration.jpegQuality = quality
        }
        let json = arguments.flag("--json")
        try arguments.finish()
        guard let output else { throw UsageError("capture needs -o FILE") }

        let session = try CameraSession(configuration: camera.configuration)
        let interrupt = Interrupt { session.stop() }
        defer { session.stop() }
        do {
            try await session.start()
            if warmup > 1 {
                for await frame in session.frames() where frame.number >= warmup { break }
            }
            let photo = try await session.capturePhoto(to: output, overwrite: overwrite)
            session.stop()
            if json {
                print(#"{"path":"\#(jsonEscaped(photo.path))","width":\#(photo.width),"height":\#(photo.height),"milliseconds":\#(photo.duration.milliseconds)}"#)
            } else {
                print("Saved \(photo.path) (\(photo.width)x\(photo.height))")
            }
        } catch where interrupt.didFire {
            Standard.error.write("gstcam: interrupted; nothing was saved.\n")
            throw ExitRequest(status: .interrupted)
        }
    }
}
