import Foundation
import Glibc
import Testing
@testable import CameraErrors
@testable import LinuxSystem
@testable import MediaFiles

/// What the gallery lists, in which order, and the `latest` link.
@Suite struct GalleryListingTests {
    typealias F = PhotoFileFixtures

    /// A gallery of three photos whose order differs by name, by file time and by EXIF date, plus files
    /// the gallery must skip. Returns the directory.
    static func makeGallery() throws -> String {
        let directory = F.makeDirectory("gallery")
        // Oldest by file time, but its EXIF date (when it was taken) is the newest.
        try F.makeJPEG(width: 320, height: 240, at: directory + "/IMG_A.jpg")
        try F.tagEXIF(directory + "/IMG_A.jpg", byteOrder: "II",
                      tags: ["Make": "Foo", "Model": "Cam", "DateTimeOriginal": "2026:06:01 12:00:00", "OffsetTimeOriginal": "+00:00"])
        F.setModificationTime(directory + "/IMG_A.jpg", 1_500_000_000)
        try F.makePNG(width: 64, height: 48, at: directory + "/IMG_B.png")
        F.setModificationTime(directory + "/IMG_B.png", 1_770_000_000)  // 2026-02-02
        try F.makeJPEG(width: 32, height: 16, at: directory + "/IMG_C.JPEG")
        F.setModificationTime(directory + "/IMG_C.JPEG", 1_760_000_000)  // 2025-10-09
        // Not photos, or not finished ones:
        F.write(F.bytes(directory + "/IMG_B.png"), to: directory + "/.hidden.png")
        F.write([0xFF, 0xD8], to: directory + "/.IMG_D.jpg.partial-123-1")
        F.write(Array("notes".utf8), to: directory + "/notes.txt")
        try FileManager.default.createDirectory(atPath: directory + "/folder.jpg", withIntermediateDirectories: false)
        #expect(symlink("IMG_C.JPEG", directory + "/latest.jpg") == 0)
        return directory
    }

    @Test func photosAreListedNewestFirstByEXIFDateElseFileTime() throws {
        let directory = try Self.makeGallery()
        defer { F.removeTree(directory) }
        let photos = try PhotoLibrary(directory: directory, environment: F.environment(["HOME": "/h"], utcOffset: 0)).photos()
        #expect(photos.map(\.name) == ["IMG_A.jpg", "IMG_B.png", "IMG_C.JPEG"])
        #expect(photos.map(\.size) == [PixelSize(width: 320, height: 240), PixelSize(width: 64, height: 48), PixelSize(width: 32, height: 16)])
        #expect(photos.map(\.dateSource) == [.exif, .modificationTime, .modificationTime])
        #expect(photos.map(\.camera) == ["Foo Cam", nil, nil])
        #expect(photos.map(\.dateText) == ["2026-06-01T12:00:00.000+00:00", "2026-02-02T02:40:00.000+00:00", "2025-10-09T08:53:20.000+00:00"])
        #expect(photos.map(\.byteCount) == photos.map { F.bytes($0.path).count })
        #expect(photos.allSatisfy { $0.isComplete })
        #expect(photos[0].path == directory + "/IMG_A.jpg")
    }

    @Test func sameDatesAreOrderedByNameLastFirst() throws {
        let directory = F.makeDirectory("gallery")
        defer { F.removeTree(directory) }
        try F.makeJPEG(at: directory + "/IMG_1.jpg")
        for name in ["IMG_2.jpg", "IMG_3.jpg"] { F.write(F.bytes(directory + "/IMG_1.jpg"), to: directory + "/" + name) }
        for name in ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg"] { F.setModificationTime(directory + "/" + name, 1_700_000_000) }
        #expect(try PhotoLibrary(directory: directory).photos().map(\.name) == ["IMG_3.jpg", "IMG_2.jpg", "IMG_1.jpg"])
    }

    @Test func damagedPhotosAreListedAsIncomplete() throws {
        let directory = F.makeDirectory("gallery")
        defer { F.removeTree(directory) }
        try F.makeJPEG(at: directory + "/whole.jpg")
        let bytes = F.bytes(directory + "/whole.jpg")
        F.write(Array(bytes.prefix(bytes.count / 2)), to: directory + "/cut.jpg")
        let photos = try PhotoLibrary(directory: directory).photos()
        let cut = try #require(photos.first { $0.name == "cut.jpg" })
        #expect(!cut.isComplete)
        #expect(cut.size == PixelSize(width: 320, height: 240))
    }

    @Test func missingGalleryIsEmpty() throws {
        #expect(try PhotoLibrary(directory: "/tmp/gstcam-no-such-gallery-\(getpid())").photos().isEmpty)
        #expect(try PhotoLibrary(directory: "/tmp/gstcam-no-such-gallery-\(getpid())").newestPhoto() == nil)
        #expect(throws: CameraError.self) { try PhotoLibrary(directory: "/etc/passwd").photos() }
    }

    @Test func latestLinkFollowsTheNewestPhoto() throws {
        let directory = F.makeDirectory("gallery")
        defer { F.removeTree(directory) }
        let library = PhotoLibrary(directory: directory, environment: F.environment(["HOME": "/h"]))
        try F.makeJPEG(at: directory + "/IMG_1.jpg")
        #expect(try PhotoLibrary.updateLatestLink(to: directory + "/IMG_1.jpg") == directory + "/latest.jpg")
        #expect(try SystemCalls.readLink(directory + "/latest.jpg") == "IMG_1.jpg")
        F.write(F.bytes(directory + "/IMG_1.jpg"), to: directory + "/IMG_2.jpg")
        try PhotoLibrary.updateLatestLink(to: directory + "/IMG_2.jpg")
        #expect(try SystemCalls.readLink(directory + "/latest.jpg") == "IMG_2.jpg")
        #expect(F.bytes(directory + "/latest.jpg") == F.bytes(directory + "/IMG_2.jpg"))
        // A PNG becomes the latest: latest.png appears, latest.jpg goes, so only one `latest` exists.
        try F.makePNG(at: directory + "/IMG_3.png")
        #expect(try PhotoLibrary.updateLatestLink(to: directory + "/IMG_3.png") == directory + "/latest.png")
        #expect(try SystemCalls.readLink(directory + "/latest.png") == "IMG_3.png")
        #expect(!F.exists(directory + "/latest.jpg"))
        // No temporary links are left, and the links are not listed as photos.
        #expect(F.entries(directory) == ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.png", "latest.png"])
        #expect(try library.photos().count == 3)
    }

    @Test func latestLinkNeverReplacesARealFile() throws {
        let directory = F.makeDirectory("gallery")
        defer { F.removeTree(directory) }
        try F.makeJPEG(at: directory + "/IMG_1.jpg")
        F.write([1, 2, 3], to: directory + "/latest.jpg")
        #expect(throws: CameraError.outputExists(path: directory + "/latest.jpg")) {
            try PhotoLibrary.updateLatestLink(to: directory + "/IMG_1.jpg")
        }
        #expect(F.bytes(directory + "/latest.jpg") == [1, 2, 3])
    }
}
