import Foundation
import Testing

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
        (["capture", "--pipeline", "test-pattern"], "capture needs -o FILE"),
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
