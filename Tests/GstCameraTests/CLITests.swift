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

    @Test func captureToStandardOutputWritesTheJPEGBytes() throws {
        let result = try runProcess("/bin/sh", ["-c", "'\(gstcamBinary)' capture --pipeline test-pattern --warmup 0 -o - | wc -c; "
                                                + "'\(gstcamBinary)' capture --pipeline test-pattern --warmup 0 -o - | head -c 2 | od -An -tx1"])
        let lines = result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Int(lines.first ?? "") ?? 0 > 10_000)
        #expect(lines.last == "ff d8")
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

    @Test func ctrlCStopsCleanlyWithStatus130() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gstcamBinary)
        process.arguments = ["preview", "--pipeline", "test-pattern", "--width", "160", "--height", "120"]
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
    }
}
