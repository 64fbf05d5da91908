import Glibc
import GstCamera

/// `gstcam capture`: open the camera, let exposure settle, take one photo, close.
enum CaptureCommand: Command {
    static let name = "capture"
    static let summary = "Take a photo."
    static let usage = """
    USAGE: gstcam capture [-o FILE | --dir DIR] [--device CAMERA] [--pipeline FILE] [--warmup N] [options]

    Without -o, the photo goes to the gallery folder (see `gstcam help gallery`) as IMG_<date>_<time>.jpg,
    never replacing another photo.

    OPTIONS:
      -o, --output FILE      Where to write the JPEG; - writes it to standard output. The file appears whole
                             or not at all.
      --dir DIR              Save into DIR under a new gallery name instead of the gallery folder.
      --overwrite            Replace FILE if it exists (otherwise an existing file is an error).
      --flash                Fire the camera's flash LED for the photo.
      --latest               Point latest.jpg in the photo's folder at the new photo.
      --warmup N             Frames to let pass first so exposure and white balance settle (default 15;
                             0 takes the first frame).
      --format jpeg|png      The image format (default: from the file name's extension, else jpeg).
      --quality Q            JPEG quality 1…100 (default 85).
      --json                 Print the result as JSON.
      --preview              Show the camera screen first (a window, else the terminal): space or Enter takes
                             the photo and prints its path; Esc or closing the window cancels (exit status 2).
    \(CameraOptions.help)
    """

    static func run(_ arguments: inout Arguments) async throws {
        var camera = try CameraOptions(&arguments)
        let output = try arguments.option("-o", "--output")
        let directory = try arguments.option("--dir")
        let overwrite = arguments.flag("--overwrite")
        let latest = arguments.flag("--latest")
        let flash = arguments.flag("--flash")
        let warmup = try arguments.int("--warmup", minimum: 0) ?? 15
        if let quality = try arguments.option("--quality", as: "a quality from 1 to 100", { Int($0).flatMap { (1...100).contains($0) ? $0 : nil } }) {
            camera.configuration.jpegQuality = quality
        }
        let format = try arguments.option("--format", as: "jpeg or png") { PhotoFormat(rawValue: $0.lowercased() == "jpg" ? "jpeg" : $0.lowercased()) }
        let json = arguments.flag("--json")
        let preview = arguments.flag("--preview")
        try arguments.finish()
        if preview {
            if output != nil { throw UsageError("--preview saves into the gallery or --dir DIR, not -o FILE") }
            return try await PickerScreen.run(camera: camera, directory: directory, json: json)
        }
        if output != nil, directory != nil { throw UsageError("give either -o FILE or --dir DIR, not both") }
        if output == "-", latest { throw UsageError("--latest needs a saved photo, not -o -") }

        if output != "-", format == nil || format == .jpeg, try ScreenRemote.capture(
            camera: camera, output: output, directory: directory, overwrite: overwrite, latest: latest, json: json) {
            return
        }
        let session = try CameraSession(configuration: camera.configuration)
        let interrupt = Interrupt { session.stop() }
        defer { session.stop() }
        do {
            try await session.start()
            try await camera.adjust(session)
            if warmup > 1 {
                for await frame in session.frames() where frame.number >= warmup { break }
            }
            if output == "-" {
                try await writeToStandardOutput(session, format: format ?? .jpeg)
                return
            }
            let photo = output == nil
                ? try await session.capturePhoto(into: PhotoLibrary(directory: directory), format: format ?? .jpeg, flash: flash)
                : try await session.capturePhoto(to: output!, format: format, overwrite: overwrite, flash: flash)
            session.stop()
            if latest { try PhotoLibrary.updateLatestLink(to: photo.path) }
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

    /// `-o -`: the photo is taken into a private temporary folder, copied to stdout and removed.
    private static func writeToStandardOutput(_ session: CameraSession, format: PhotoFormat) async throws {
        var template = Array("/tmp/gstcam-stdout-XXXXXX".utf8CString)
        guard let folder = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw CameraError.outputNotWritable(path: "/tmp", reason: "no temporary folder could be made")
        }
        defer { rmdir(folder) }
        let photo = try await session.capturePhoto(to: folder + "/photo." + format.fileExtension, format: format)
        defer { unlink(photo.path) }
        session.stop()
        let fd = open(photo.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CameraError.writeFailed(path: "standard output", errno: errno) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count == 0 { break }
            guard count > 0 else { throw CameraError.writeFailed(path: "standard output", errno: errno) }
            var offset = 0
            while offset < count {
                let written = buffer[offset..<count].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
                guard written > 0 else { throw CameraError.writeFailed(path: "standard output", errno: errno) }
                offset += written
            }
        }
    }
}
