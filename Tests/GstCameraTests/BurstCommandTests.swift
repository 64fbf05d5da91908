import Foundation
import Testing
@testable import LinuxSystem

/// `gstcam capture --count N [--interval S]` as a user runs it.
@Suite struct BurstCommandTests {
    @Test func burstIntoTheGalleryPrintsAJSONLinePerPhoto() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try gstcam(["capture", "--pipeline", "test-pattern", "--width", "320", "--height", "240",
                                 "--count", "5", "--dir", folder, "--latest", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 5)
        var paths: [String] = []
        for (index, line) in lines.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["number"] as? Int == index + 1)
            #expect(object["width"] as? Int == 320 && object["height"] as? Int == 240)
            #expect(object["missed_intervals"] as? Int == 0)
            let path = try #require(object["path"] as? String)
            #expect(path.hasPrefix(folder + "/IMG_") && path.hasSuffix(String(format: "_%04d.jpg", index + 1)))
            paths.append(path)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == (paths.map { FilePath.lastComponent(of: $0) } + ["latest.jpg"]).sorted())
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/latest.jpg") == FilePath.lastComponent(of: paths[4]))
    }

    @Test func timelapseToAPatternNamesFilesInSequence() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let started = Date()
        let result = try gstcam(["capture", "--pipeline", "test-pattern", "--width", "160", "--height", "120",
                                 "--count", "3", "--interval", "0.4", "-o", folder + "/lapse-%02d.png"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == (1...3).map { "Saved \(folder)/lapse-0\($0).png (160x120)\n" }.joined())
        #expect(elapsed > 0.8, "three photos 0.4 s apart take at least 0.8 s (took \(elapsed))")
        let png = try #require(FileManager.default.contents(atPath: folder + "/lapse-03.png"))
        #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        // Numbered names are never replaced without --overwrite.
        let again = try gstcam(["capture", "--pipeline", "test-pattern", "--width", "160", "--height", "120",
                                "--count", "2", "-o", folder + "/lapse-%02d.png"])
        #expect(again.status == 1)
        #expect(again.error.contains("\(folder)/lapse-01.png already exists"), "\(again.error)")
        #expect(FileManager.default.contents(atPath: folder + "/lapse-03.png") == png)
    }

    @Test func aSlowTimelapseSaysWhichIntervalsItMissed() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try gstcam(["capture", "--pipeline", "test-pattern", "--width", "160", "--height", "120",
                                 "--count", "3", "--interval", "0.005", "-o", folder + "/fast.jpg"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.split(separator: "\n").count == 3)
        #expect(result.error.contains(": the camera was slower than one photo every 0.005 s\n"), "\(result.error)")
        #expect(result.error.hasPrefix("gstcam: missed "), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["fast_0001.jpg", "fast_0002.jpg", "fast_0003.jpg"])
    }

    @Test(arguments: [
        (["--interval", "1"], "--interval needs --count N"),
        (["--count", "2", "-o", "-"], "-o - writes one photo; a burst needs files"),
        (["--count", "2", "-o", "a-%d-%d.jpg"], "a pattern may hold one number"),
        (["--count", "-1"], "--count: \"-1\" is not a whole number ≥ 0"),
        (["--immediate", "--warmup", "4"], "--immediate means --warmup 0"),
    ])
    func burstUsageErrors(_ arguments: [String], _ message: String) throws {
        let result = try gstcam(["capture", "--pipeline", "test-pattern"] + arguments)
        #expect(result.status == 64)
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test func aSinglePhotoNameIsNotAPattern() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try gstcam(["capture", "--pipeline", "test-pattern", "--immediate", "-o", folder + "/100%-%d.jpg"])
        #expect(result.status == 0, "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["100%-%d.jpg"])
    }

    /// The virtual camera numbers its frames from 0 when streaming starts, so a photo's stamp tells how many
    /// frames were let pass before it.
    @Test func warmUpLetsFramesPassAndImmediateTakesTheFirst() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var stamps: [String: UInt32] = [:]
        for (name, options) in [("immediate", ["--immediate"]), ("warmup-10", ["--warmup", "10"]), ("default", [])] {
            let path = folder + "/\(name).jpg"
            // 640x480: the default photo (1920x1080 here) moves more bytes per frame, so a loaded machine may let an
            // extra frame pass before an immediate photo.
            let result = try gstcam(["capture", "--device", BurstTests.device, "--width", "640", "--height", "480", "-o", path] + options)
            #expect(result.status == 0, "\(result.error)")
            stamps[name] = try ShutterStamp.decode(photo: path)
        }
        #expect(stamps["immediate"].map { $0 <= 2 } == true, "\(stamps)")
        #expect(stamps["warmup-10"].map { $0 >= 9 && $0 <= 12 } == true, "\(stamps)")
        #expect(stamps["default"].map { $0 >= 14 && $0 <= 17 } == true, "default warm-up is 15 frames: \(stamps)")
    }
}
