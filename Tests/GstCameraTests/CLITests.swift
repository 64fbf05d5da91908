import Foundation
import Testing
import GstCamera

@Suite struct CLITests {
    @Test(arguments: [["--help"], ["-h"], ["help"], ["help", "capture"], ["capture", "--help"], ["preview", "-h"]])
    func helpGoesToStandardOutputWithStatusZero(_ arguments: [String]) throws {
        let result = try gstcam(arguments)
        #expect(result.status == 0)
        #expect(result.output.contains("OVERVIEW:"))
        #expect(result.output.contains("USAGE:"))
        #expect(result.error.isEmpty)
    }

    @Test func commandHelpListsItsOptions() throws {
        let result = try gstcam(["help", "capture"])
        for option in ["-o, --output", "--warmup", "--device", "--pipeline", "--overwrite"] {
            #expect(result.output.contains(option))
        }
    }

    @Test(arguments: [
        (["capture", "--bogus"], "unknown option --bogus"),
        (["capture", "-o", "a.jpg", "--dir", "/tmp"], "give either -o FILE or --dir DIR, not both"),
        (["capture", "-o", "x.jpg", "--warmup", "lots"], "--warmup: \"lots\" is not a whole number ≥ 0"),
        (["capture", "-o", "x.jpg", "--quality", "0"], "--quality: \"0\" is not a quality from 1 to 100"),
        (["preview", "--duration"], "--duration needs a value"),
        (["frobnicate"], "unknown command \"frobnicate\""),
        ([], "USAGE: gstcam <command>"),
    ])
    func usageErrorsGoToStandardErrorWithStatus64(_ arguments: [String], _ message: String) throws {
        let result = try gstcam(arguments)
        #expect(result.status == 64)
        #expect(result.error.contains(message))
        #expect(result.output.isEmpty)
    }

    @Test func captureFromTheTestPatternWritesAValidJPEG() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/shot.jpg"
        let result = try gstcam(["capture", "--pipeline", "test-pattern", "--width", "320", "--height", "240", "-o", path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "Saved \(path) (320x240)\n")
        let image = try decodeImage(path)
        #expect(image.width == 320 && image.height == 240)
        // Second time without --overwrite: refused, file untouched.
        let before = FileManager.default.contents(atPath: path)
        let again = try gstcam(["capture", "--pipeline", "test-pattern", "-o", path])
        #expect(again.status == 1)
        #expect(again.error == "gstcam: \(path) already exists; choose another name or allow overwriting (--overwrite).\n")
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    @Test func captureJSONReportsPathAndSize() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try gstcam(["capture", "--pipeline", "test-pattern", "--json", "--warmup", "0", "-o", folder + "/a.jpg"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["path"] as? String == folder + "/a.jpg")
        #expect(object["width"] as? Int == 640)
        #expect(object["height"] as? Int == 480)
    }

    @Test func captureWithoutOutputGoesToThePicturesFolderAndLatestFollows() throws {
        let home = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_PICTURES_DIR"] = nil
        environment["GSTCAM_PHOTO_DIR"] = nil
        var saved: [String] = []
        for _ in 0..<2 {
            let result = try gstcam(["capture", "--pipeline", "test-pattern", "--warmup", "0", "--latest"], environment: environment)
            #expect(result.status == 0, "\(result.error)")
            let path = try #require(result.output.split(separator: " ").dropFirst().first.map(String.init))
            #expect(path.hasPrefix(home + "/Pictures/gstcam/IMG_"))
            #expect(path.hasSuffix(".jpg"))
            saved.append(path)
        }
        #expect(saved[0] != saved[1])
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: home + "/Pictures/gstcam/latest.jpg")
        #expect(link == (saved[1] as NSString).lastPathComponent)
        let last = try gstcam(["gallery", "--last"], environment: environment)
        #expect(last.output == saved[1] + "\n")
    }

    /// `-o -` writes one whole JPEG to standard output and nothing else: a decoder reads the exact size back.
    @Test func captureToStandardOutputWritesTheJPEGBytes() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/piped.jpg"
        let result = try runProcess("/bin/sh", ["-c", "'\(gstcamBinary)' capture --pipeline test-pattern --width 320 --height 240 "
                                                + "--warmup 0 -o - > '\(file)'"])
        #expect(result.status == 0, "\(result.error)")
        let bytes = try #require(FileManager.default.contents(atPath: file))
        #expect(bytes.prefix(2) == Data([0xFF, 0xD8]) && bytes.suffix(2) == Data([0xFF, 0xD9]), "one JPEG, start to end")
        let image = try decodeImage(file)
        #expect(image.width == 320 && image.height == 240 && image.rgb.count == 320 * 240 * 3)
    }

    @Test func captureWithoutACameraSaysSoAndFails() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try gstcam(["capture", "-o", folder + "/shot.jpg"], environment: environmentWithoutCameras)
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("gstcam: No camera found"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func captureIntoAMissingFolderFailsBeforeTheCamera() throws {
        let result = try gstcam(["capture", "--pipeline", "test-pattern", "-o", "/nonexistent-folder/shot.jpg"])
        #expect(result.status == 1)
        #expect(result.error == "gstcam: Cannot write /nonexistent-folder/shot.jpg: the directory /nonexistent-folder does not exist.\n")
    }

    @Test func previewPrintsFiguresOncePerSecond() throws {
        let result = try gstcam(["preview", "--pipeline", "test-pattern", "--width", "160", "--height", "120", "--duration", "2", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 2)
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])
        let fps = try #require(last["fps"] as? Double)
        #expect(fps > 20 && fps < 40)
        #expect((last["frames"] as? Int ?? 0) >= 45)
    }

    /// Ctrl-C: status 130, and clean — the camera released at once (another session streams it), the screen's
    /// socket removed, no error printed.
    @Test func ctrlCStopsCleanlyWithStatus130() async throws {
        let runtime = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let device = "/dev/video4"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gstcamBinary)
        process.arguments = ["preview", "--device", device, "--sink", "none", "--width", "640", "--height", "480"]
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let socket = runtime + "/gstcam-video4.sock"
        var waited = 0
        while !FileManager.default.fileExists(atPath: socket) && waited < 100 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        #expect(FileManager.default.fileExists(atPath: socket), "the screen never listened")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket was left behind")
        let printed = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!printed.contains("error") && !printed.contains("failed"), "\(printed)")
        let next = try CameraSession(configuration: CameraConfiguration(device: device, width: 640, height: 480))
        defer { next.stop() }
        try await next.start()  // busy would throw: the camera was released
        #expect(next.state == .running)
    }
}
