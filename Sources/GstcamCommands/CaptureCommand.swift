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
      -o, --output FILE      Where to write the photo; - writes it to standard output. The file appears whole
                             or not at all. Its extension gives the format: .jpg or .jpeg (JPEG), .png (PNG);
                             another extension (x.webp), or one that contradicts --format, is refused.
      --dir DIR              Save into DIR under a new gallery name instead of the gallery folder.
      --overwrite            Replace FILE if it exists (otherwise an existing file is an error).
      --flash [MODE]         The camera's flash LED for the photo: on (the default of a bare --flash), off,
                             or auto: fires when the picture is dark (mean luma of a preview frame below 60
                             of 255); a camera without a flash takes the photo without it in auto, and
                             fails with on. With --preview, the screen starts in that mode (l changes it).
      --timer SECONDS        Self-timer: count down (3, 5, 10; up to 60) on stderr, then take the photo at
                             zero. With --preview, the screen's shutter counts down on the screen instead
                             (T changes it; Esc cancels a countdown).
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
      --format jpeg|png      The image format (default: from the file name's extension, else jpeg); with -o,
                             the name's extension must agree (--format png -o x.jpg is refused).
      --quality Q            JPEG quality 1…100 (default 85).
      --stamp [FORMAT]       Draw the date and time in the photo's bottom right corner, as strftime FORMAT
                             (default "%Y-%m-%d %H:%M:%S"; local time when the frame is taken).
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
        let flashMode = try arguments.option("--flash", values: FlashMode.allCases.map(\.rawValue), bare: "on")
            .flatMap(FlashMode.init(rawValue:))
        let immediate = arguments.flag("--immediate")
        let warmupOption = try arguments.int("--warmup", minimum: 0)
        let count = try arguments.int("--count", minimum: 0)
        let interval = try arguments.double("--interval", minimum: 0)
        if let quality = try arguments.option("--quality", as: "a quality from 1 to 100", { Int($0).flatMap { (1...100).contains($0) ? $0 : nil } }) {
            camera.configuration.jpegQuality = quality
        }
        let format = try arguments.option("--format", as: "jpeg or png") { PhotoFormat(rawValue: $0.lowercased() == "jpg" ? "jpeg" : $0.lowercased()) }
        let json = arguments.flag("--json")
        let stamp = try arguments.option("--stamp", bare: "%Y-%m-%d %H:%M:%S") { $0.contains("%") }
        if stamp?.isEmpty == true { throw UsageError("--stamp: give a strftime format such as \"%Y-%m-%d %H:%M\", or none") }
        camera.configuration.photoStamp = stamp
        let preview = arguments.flag("--preview")
        let timer = try arguments.option("--timer", as: "a number of seconds from 0 to 60 (e.g. 3, 5, 10)") { Int($0).flatMap { (0...60).contains($0) ? $0 : nil } } ?? 0
        try arguments.finish()
        if preview {
            if output != nil { throw UsageError("--preview saves into the gallery or --dir DIR, not -o FILE") }
            return try await PickerScreen.run(camera: camera, directory: directory, json: json, flash: flashMode ?? .off, timer: timer)
        }
        let flash = flashMode != nil && flashMode != .off
        if output != nil, directory != nil { throw UsageError("give either -o FILE or --dir DIR, not both") }
        if let output, output != "-", let problem = PhotoFormat.problem(writing: format, to: output) {
            throw UsageError(problem)
        }
        if output == "-", latest { throw UsageError("--latest needs a saved photo, not -o -") }
        if immediate, let warmupOption, warmupOption != 0 { throw UsageError("--immediate means --warmup 0; give one or the other") }
        let warmup = immediate ? 0 : warmupOption ?? 15
        if interval != nil, count == nil { throw UsageError("--interval needs --count N (use --count 0 to run until Ctrl-C)") }
        if count != nil, output == "-" { throw UsageError("-o - writes one photo; a burst needs files (-o PATTERN or --dir)") }
        if count != nil, timer > 0 { throw UsageError("--timer counts down to one photo; for a sequence use --count with --interval") }
        if count != nil, flash { throw UsageError("--flash fires for one photo; it cannot be used with --count (the LED needs time to recharge between flashes)") }
        let pattern = count == nil ? nil : try output.map { output in
            guard let names = NumberedPhotoNames(pattern: output) else {
                throw UsageError("-o \(output): a pattern may hold one number (%d, %4d or %04d) and %% for a %")
            }
            return names
        }

        // The name is checked (free, in a writable folder, not a camera's device node) before the camera opens:
        // a slow camera's warm-up (15 frames at 2 fps) should not come before "already exists".
        if let first = pattern?.path(forShot: 1) ?? output, first != "-" {
            try PhotoOutput(finalPath: first, collision: PhotoNameCollision(overwrite: overwrite), format: format).discard()
        }

        // GStreamer starts, and loads the pipeline's plugins, while the camera is probed (issue 13: each took
        // ~10 ms of a cold photo) — unless a camera screen may take the photo for us (its socket is there).
        if count != nil || !RemoteSocketPath.anyExists() {
            CameraSession.startGStreamerEarly(for: camera.configuration)
        }
        camera.findCamera()
        if count == nil, try await ScreenRemote.capture(camera: camera, output: output, directory: directory, overwrite: overwrite,
                                                         latest: latest, json: json, format: format, flash: flashMode, timer: timer) {
            return
        }
        let choice = try camera.modeChoice(for: .photo)
        let mode = ModeRecord(choice)
        var configuration = choice.configuration
        // Only the flash's auto mode looks at a preview frame (the scene's brightness); otherwise nothing reads
        // frames, so the session has no preview branch to build (issue 13).
        configuration.previewFrames = flashMode == .auto
        let session = try CameraSession(configuration: configuration, camera: choice.camera)
        let interrupt = Interrupt { session.stop() }
        defer { session.stop() }
        do {
            try await session.start()
            try await camera.adjust(session)
            if warmup > 1 {
                // Counted, not read: frames() would convert each one for nobody.
                for await number in session.frameNumbers() where number >= warmup { break }
            }
            await SelfTimer.countDown(timer, cancelled: { interrupt.didFire })
            if output == "-" {
                try await writeToStandardOutput(session, format: format ?? .jpeg, flash: try await flashFires(flashMode ?? .off, session: session))
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
            let fires = try await flashFires(flashMode ?? .off, session: session)
            let photo = output == nil
                ? try await session.capturePhoto(into: PhotoLibrary(directory: directory), format: format ?? .jpeg, flash: fires)
                : try await session.capturePhoto(to: output!, format: format, overwrite: overwrite, flash: fires)
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

    /// Whether the flash fires in `mode`; auto's decision is printed to stderr ("Flash: auto, scene luma 23 of
    /// 255: fires").
    static func flashFires(_ mode: FlashMode, session: CameraSession) async throws -> Bool {
        let decision = await session.flashDecision(mode)
        if mode == .auto {
            let luma = decision.meanLuma.map { "scene luma \(Int($0.rounded())) of 255 (dark below \(Int(SceneBrightness.darkBelow)))" }
                ?? "no preview frame to judge the scene by"
            let hasFlash = (try? session.controls())?.hasFlash ?? false
            Standard.error.write("Flash: auto, \(luma): " + (decision.fires ? "fires" : hasFlash ? "does not fire" : "this camera has no flash") + "\n")
        }
        return decision.fires
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
    private static func writeToStandardOutput(_ session: CameraSession, format: PhotoFormat, flash: Bool) async throws {
        let relay = try StandardOutputRelay(format: format)
        do {
            _ = try await session.capturePhoto(to: relay.path, format: format, flash: flash)
        } catch {
            relay.remove()
            throw error
        }
        session.stop()
        try relay.copyToStandardOutput()
    }
}

/// `--timer`: the seconds left on stderr ("Photo in 3… 2… 1…"), one a second; the photo is taken at zero.
enum SelfTimer {
    static func countDown(_ seconds: Int, cancelled: () -> Bool = { false }) async {
        guard seconds > 0 else { return }
        Standard.error.write("Photo in")
        for left in stride(from: seconds, to: 0, by: -1) {
            Standard.error.write(" \(left)…")
            for _ in 0..<10 where !cancelled() { try? await Task.sleep(for: .milliseconds(100)) }
            if cancelled() { break }
        }
        Standard.error.write("\n")
    }
}
