import Glibc
import GstCamera
import LinuxSystem
import Reports
import Screen

/// `gstcam capture`: open the camera, let exposure settle, take one photo (or a burst or timelapse with
/// `--count`), close.
enum CaptureCommand: Command {
    static let name = "capture"
    static let summary = "Take a photo, a burst or a timelapse."
    static let usage = """
    USAGE: gstcam capture [-o FILE | --dir DIR] [--device CAMERA] [--pipeline FILE] [--warmup N] [options]
           gstcam capture --count N [--interval SECONDS] [-o PATTERN | --dir DIR] [options]

    Without -o, the photo goes to the gallery folder (see `gstcam help gallery`) as IMG_<date>_<time>.jpg,
    never replacing another photo. With --count, the camera stays open between photos; gallery names are
    IMG_<start>_0001.jpg, _0002…, and one line per photo is printed (a JSON object per line with --json).

    OPTIONS:
      -o, --output FILE      Where to write the JPEG; - writes it to standard output. The file appears whole
                             or not at all.
      --dir DIR              Save into DIR under a new gallery name instead of the gallery folder.
      --overwrite            Replace FILE if it exists (otherwise an existing file is an error).
      --flash                Fire the camera's flash LED for the photo.
      --latest               Point latest.jpg in the photo's folder at the new photo.
      --warmup N             Frames to let pass first so exposure and white balance settle (default 15;
                             0 takes the first frame).
      --immediate            The same as --warmup 0: fastest, but the first frames of a real camera may be
                             dark or off-colour.
      --count N              Take N photos with the camera kept open (0: until Ctrl-C).
      --interval SECONDS     With --count: one photo every SECONDS (a timelapse; fractions allowed). Default 0:
                             a burst, as fast as the photos can be encoded. When a photo takes longer than the
                             interval, the missed intervals are reported (stderr, or "missed_intervals").
                             With -o, PATTERN names the files: shot-%03d.jpg gives shot-001.jpg, shot-002.jpg…;
                             a name without %d gets _0001, _0002… before its extension.
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
        let immediate = arguments.flag("--immediate")
        let warmupOption = try arguments.int("--warmup", minimum: 0)
        let count = try arguments.int("--count", minimum: 0)
        let interval = try arguments.double("--interval", minimum: 0)
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
        if immediate, let warmupOption, warmupOption != 0 { throw UsageError("--immediate means --warmup 0; give one or the other") }
        let warmup = immediate ? 0 : warmupOption ?? 15
        if interval != nil, count == nil { throw UsageError("--interval needs --count N (use --count 0 to run until Ctrl-C)") }
        if count != nil, output == "-" { throw UsageError("-o - writes one photo; a burst needs files (-o PATTERN or --dir)") }
        if count != nil, flash { throw UsageError("--flash fires for one photo; it cannot be used with --count") }
        let pattern = count == nil ? nil : try output.map { output in
            guard let names = NumberedPhotoNames(pattern: output) else {
                throw UsageError("-o \(output): a pattern may hold one number (%d, %4d or %04d) and %% for a %")
            }
            return names
        }

        if output != "-", count == nil, !flash, format == nil || format == .jpeg, try ScreenRemote.capture(
            camera: camera, output: output, directory: directory, overwrite: overwrite, latest: latest, json: json) {
            return
        }
        let choice = try camera.modeChoice(for: .photo)
        let mode = ModeRecord(choice)
        let session = try CameraSession(configuration: choice.configuration)
        let interrupt = Interrupt { session.stop() }
        defer { session.stop() }
        do {
            try await session.start()
            try await camera.adjust(session)
            if warmup > 1 {
                // Counted, not read: frames() would convert each one for nobody.
                for await number in session.frameNumbers() where number >= warmup { break }
            }
            if output == "-" {
                try await writeToStandardOutput(session, format: format ?? .jpeg)
                return
            }
            if let count {
                let photos = pattern.map {
                    session.photos(count: count == 0 ? nil : count, interval: .seconds(interval ?? 0), to: $0,
                                   format: format, overwrite: overwrite)
                } ?? session.photos(count: count == 0 ? nil : count, interval: .seconds(interval ?? 0),
                                    into: PhotoLibrary(directory: directory), format: format ?? .jpeg)
                try await report(photos, interval: interval ?? 0, latest: latest, json: json, mode: mode, interrupt: interrupt)
                return
            }
            let photo = output == nil
                ? try await session.capturePhoto(into: PhotoLibrary(directory: directory), format: format ?? .jpeg, flash: flash)
                : try await session.capturePhoto(to: output!, format: format, overwrite: overwrite, flash: flash)
            session.stop()
            if latest { try PhotoLibrary.updateLatestLink(to: photo.path) }
            if json {
                print(JSONOutput.line(PhotoRecord(photo, mode: mode)))
            } else if isStandardOutput(photo.path) {
                // -o /dev/stdout: the photo went into standard output, so the line must not follow it there.
                Standard.error.write("Saved \(photo.path) (\(photo.width)x\(photo.height))\n")
            } else {
                print("Saved \(photo.path) (\(photo.width)x\(photo.height))")
            }
        } catch let request as ExitRequest {
            throw request  // a burst that reported its own ending
        } catch where interrupt.didFire {
            Standard.error.write("gstcam: interrupted; nothing was saved.\n")
            throw ExitRequest(status: .interrupted)
        }
    }

    /// Prints each photo of a burst or timelapse as it is saved. A failure or Ctrl-C ends the sequence; the
    /// photos printed before it are complete.
    private static func report(_ photos: AsyncThrowingStream<BurstPhoto, any Error>, interval: Double, latest: Bool,
                               json: Bool, mode: ModeRecord, interrupt: Interrupt) async throws {
        var saved = 0
        do {
            for try await shot in photos {
                saved += 1
                if latest { try PhotoLibrary.updateLatestLink(to: shot.photo.path) }
                let photo = shot.photo
                if json {
                    var record = PhotoRecord(photo, mode: mode)
                    record.number = shot.number
                    record.missedIntervals = shot.missedIntervals
                    record.lateMilliseconds = shot.late.milliseconds
                    print(JSONOutput.line(record))
                } else {
                    if shot.missedIntervals > 0 {
                        Standard.error.write("gstcam: missed \(shot.missedIntervals) interval\(shot.missedIntervals == 1 ? "" : "s") before photo \(shot.number): the camera was slower than one photo every \(interval) s\n")
                    }
                    print("Saved \(photo.path) (\(photo.width)x\(photo.height))")
                }
                fflush(nil)  // a line per photo as it happens, also into a pipe
            }
        } catch where interrupt.didFire {
            Standard.error.write("gstcam: interrupted after \(saved) photo\(saved == 1 ? "" : "s"); every photo listed is complete.\n")
            throw ExitRequest(status: .interrupted)
        } catch {
            throw SequenceFailure(saved: saved, error: error)
        }
    }

    /// Whether `path` leads to what standard output is (e.g. /dev/stdout, /proc/self/fd/1 into a pipe).
    private static func isStandardOutput(_ path: String) -> Bool {
        var file = stat(), output = stat()
        return stat(path, &file) == 0 && fstat(1, &output) == 0 && file.st_dev == output.st_dev && file.st_ino == output.st_ino
            && file.st_mode & S_IFMT != S_IFREG
    }

    /// A burst that ended early: the reason, and how many photos were saved before it.
    struct SequenceFailure: Error, CustomStringConvertible {
        let saved: Int
        let error: any Error
        var description: String { "\(error) The sequence stopped after \(saved) photo\(saved == 1 ? "" : "s"); those are complete." }
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
        do {
            let file = try FileDescriptor.open(photo.path, O_RDONLY)
            try Standard.output.write(bytes: try file.read(count: Int(try file.status().st_size), at: 0))
        } catch {
            throw CameraError.writeFailed(path: "standard output", errno: error.code)
        }
    }
}
