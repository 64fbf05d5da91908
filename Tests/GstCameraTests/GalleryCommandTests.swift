import Foundation
import Glibc
import Testing
import GstCamera

/// `gstcam gallery` as a user runs it: a subprocess, its output and exit status.
@Suite struct GalleryCommandTests {
    typealias F = PhotoFileFixtures

    private func gstcam(_ arguments: [String], environment: [String: String] = [:]) throws -> F.Output {
        var variables = ProcessInfo.processInfo.environment
        variables["LD_PRELOAD"] = nil
        for (name, value) in environment { variables[name] = value }
        return try F.run(F.gstcam, ["gallery"] + arguments, environment: variables)
    }

    @Test func lastPrintsTheNewestPhotosPath() throws {
        let directory = try GalleryListingTests.makeGallery()
        defer { F.removeTree(directory) }
        let result = try gstcam(["--dir", directory, "--last"])
        #expect(result.status == 0)
        #expect(result.standardOutput == directory + "/IMG_A.jpg\n")
        #expect(result.standardError.isEmpty)
    }

    @Test func lastOnAnEmptyGalleryExitsOneAndSaysWhere() throws {
        let directory = F.makeDirectory("gallery")
        defer { F.removeTree(directory) }
        let result = try gstcam(["--dir", directory, "--last"])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("no photos in \(directory)"))
    }

    @Test func defaultGalleryComesFromUserDirsInHome() throws {
        let home = F.makeDirectory("home")
        defer { F.removeTree(home) }
        try FileManager.default.createDirectory(atPath: home + "/.config", withIntermediateDirectories: true)
        try "XDG_PICTURES_DIR=\"$HOME/Bilder\"\n".write(toFile: home + "/.config/user-dirs.dirs", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: home + "/Bilder/gstcam", withIntermediateDirectories: true)
        try F.makeJPEG(at: home + "/Bilder/gstcam/IMG_20261130_143205_123.jpg")
        let environment = ["HOME": home, "XDG_CONFIG_HOME": "", "XDG_PICTURES_DIR": "", "GSTCAM_PHOTO_DIR": ""]
        let result = try gstcam(["--last"], environment: environment)
        #expect(result.status == 0)
        #expect(result.standardOutput == home + "/Bilder/gstcam/IMG_20261130_143205_123.jpg\n")
        // GSTCAM_PHOTO_DIR takes precedence.
        let elsewhere = try gstcam(["--last"], environment: environment.merging(["GSTCAM_PHOTO_DIR": home]) { $1 })
        #expect(elsewhere.status == 1)
        #expect(elsewhere.standardError.contains("no photos in \(home) (from $GSTCAM_PHOTO_DIR)"))
    }

    @Test func tableListsEveryPhotoNewestFirst() throws {
        let directory = try GalleryListingTests.makeGallery()
        defer { F.removeTree(directory) }
        let result = try gstcam(["--dir", directory])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "3 photos in \(directory) (given with --dir), newest first:")
        let rows = lines.filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") || $0.hasSuffix(".JPEG") }
        #expect(rows.count == 3)
        #expect(rows[0].contains("320×240") && rows[0].contains("Foo Cam") && rows[0].hasSuffix("IMG_A.jpg"))
        #expect(rows[1].contains("64×48") && rows[1].hasSuffix("IMG_B.png"))
        #expect(rows[2].contains("32×16") && rows[2].hasSuffix("IMG_C.JPEG"))
    }

    @Test func jsonDescribesEachPhoto() throws {
        let directory = try GalleryListingTests.makeGallery()
        defer { F.removeTree(directory) }
        let result = try gstcam(["--dir", directory, "--json"], environment: ["TZ": "UTC"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["directory"] as? String == directory)
        #expect(object["directorySource"] as? String == "explicit")
        let photos = try #require(object["photos"] as? [[String: Any]])
        #expect(photos.map { $0["name"] as? String } == ["IMG_A.jpg", "IMG_B.png", "IMG_C.JPEG"])
        let first = photos[0]
        #expect(first["path"] as? String == directory + "/IMG_A.jpg")
        #expect(first["format"] as? String == "jpeg")
        #expect(first["bytes"] as? Int == F.bytes(directory + "/IMG_A.jpg").count)
        #expect(first["width"] as? Int == 320)
        #expect(first["height"] as? Int == 240)
        #expect(first["date"] as? String == "2026-06-01T12:00:00.000+00:00")
        #expect(first["dateSource"] as? String == "exif")
        #expect(first["camera"] as? String == "Foo Cam")
        #expect(first["complete"] as? Bool == true)
        #expect(photos[1]["camera"] is NSNull)
        #expect(photos[1]["dateSource"] as? String == "modified")
        #expect(photos[1]["date"] as? String == "2026-02-02T02:40:00.000+00:00")
        // --last --json: just the newest photo's object.
        let last = try gstcam(["--dir", directory, "--json", "--last"])
        let newest = try #require(try JSONSerialization.jsonObject(with: Data(last.standardOutput.utf8)) as? [String: Any])
        #expect(newest["name"] as? String == "IMG_A.jpg")
    }

    @Test func badOptionsAreUsageErrors() throws {
        let result = try gstcam(["--frobnicate"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("unknown option --frobnicate"))
        let help = try gstcam(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("USAGE: gstcam gallery"))
    }
}
