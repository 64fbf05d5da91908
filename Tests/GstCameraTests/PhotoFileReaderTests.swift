import Foundation
import Glibc
import Testing
@testable import MediaFiles

/// The JPEG/PNG/EXIF readers, on files made by the encoders capture uses (and by exiftool/ImageMagick).
@Suite struct PhotoFileReaderTests {
    typealias F = PhotoFileFixtures

    @Test(arguments: [(320, 240), (17, 9), (1280, 720)])
    func jpegDimensionsComeFromTheFrameHeader(width: Int, height: Int) throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let path = directory + "/frame.jpg"
        try F.makeJPEG(width: width, height: height, at: path)
        let header = try FileBytes.withFile(path) { JPEGReader.header(of: $0) }
        #expect(header?.size == PixelSize(width: width, height: height))
        #expect(header?.exif == nil)
        #expect(JPEGReader.header(of: MemoryBytes(F.bytes(path)))?.size == PixelSize(width: width, height: height))
    }

    @Test(arguments: [(320, 240), (33, 7)])
    func pngDimensionsComeFromIHDR(width: Int, height: Int) throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let path = directory + "/frame.png"
        try F.makePNG(width: width, height: height, at: path)
        #expect(try FileBytes.withFile(path) { PNGReader.size(of: $0) } == PixelSize(width: width, height: height))
    }

    @Test func progressiveJPEGDimensionsComeFromSOF2() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        try F.makeJPEG(width: 200, height: 150, at: directory + "/base.jpg")
        let converted = try F.run("/usr/bin/env", ["convert", directory + "/base.jpg", "-interlace", "JPEG", directory + "/progressive.jpg"])
        try #require(converted.status == 0, "ImageMagick convert failed: \(converted.standardError)")
        let bytes = F.bytes(directory + "/progressive.jpg")
        #expect(bytes.indices.dropLast().contains { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 })  // really SOF2
        #expect(JPEGReader.header(of: MemoryBytes(bytes))?.size == PixelSize(width: 200, height: 150))
    }

    @Test func completenessNeedsTheEndMarker() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        try F.makeJPEG(at: directory + "/a.jpg")
        try F.makePNG(at: directory + "/a.png")
        let jpeg = F.bytes(directory + "/a.jpg"), png = F.bytes(directory + "/a.png")
        #expect(JPEGReader.isComplete(MemoryBytes(jpeg)))
        #expect(!JPEGReader.isComplete(MemoryBytes(Array(jpeg.dropLast()))))
        #expect(!JPEGReader.isComplete(MemoryBytes(Array(jpeg.prefix(jpeg.count / 2)))))
        #expect(!JPEGReader.isComplete(MemoryBytes(png)))
        #expect(JPEGReader.isComplete(MemoryBytes(jpeg + [0, 0, 0])))  // camera MJPEG padding
        #expect(!JPEGReader.isComplete(MemoryBytes(Array(jpeg.dropLast(2)) + [0, 0, 0])))
        #expect(PNGReader.isComplete(MemoryBytes(png)))
        #expect(!PNGReader.isComplete(MemoryBytes(Array(png.dropLast()))))
        #expect(!PNGReader.isComplete(MemoryBytes(Array(png.prefix(png.count - 20)))))
        #expect(!PNGReader.isComplete(MemoryBytes(jpeg)))
        // A cut-off file still has its header: the size is known, the image is not whole.
        #expect(JPEGReader.header(of: MemoryBytes(Array(jpeg.prefix(jpeg.count / 2))))?.size == PixelSize(width: 320, height: 240))
    }

    @Test func garbageIsNotAnImage() {
        let text = MemoryBytes(Array("hello, this is not a picture".utf8))
        #expect(JPEGReader.header(of: text) == nil)
        #expect(PNGReader.size(of: text) == nil)
        #expect(JPEGReader.header(of: MemoryBytes([0xFF, 0xD8, 0xFF, 0xC0, 0x00])) == JPEGReader.Header())
        #expect(JPEGReader.header(of: MemoryBytes([])) == nil)
    }

    @Test(arguments: ["II", "MM"])
    func exifMakeModelAndDateInEitherByteOrder(byteOrder: String) throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let path = directory + "/tagged.jpg"
        try F.makeJPEG(width: 64, height: 48, at: path)
        try F.tagEXIF(path, byteOrder: byteOrder, tags: [
            "Make": "Foo", "Model": "Foo Cam 1", "DateTimeOriginal": "2026:11:30 14:32:05",
            "SubSecTimeOriginal": "123", "OffsetTimeOriginal": "+01:00",
        ])
        let header = try #require(try FileBytes.withFile(path) { JPEGReader.header(of: $0) })
        #expect(header.size == PixelSize(width: 64, height: 48))
        let exif = try #require(header.exif)
        #expect(exif.make == "Foo")  // short enough to sit inside the IFD entry
        #expect(exif.model == "Foo Cam 1")  // stored at an offset
        #expect(exif.camera == "Foo Cam 1")
        #expect(exif.dateTimeOriginal == "2026:11:30 14:32:05")
        // 14:32:05.123 at UTC+1 is 13:32:05.123 UTC, whatever the local zone.
        let taken = try #require(exif.dateTaken(utcOffset: { _ in -8 * 3600 }))
        #expect(abs(taken.timeIntervalSince1970 - 1_796_045_525.123) < 0.0005)
    }

    @Test func exifWrittenByJifmuxIsRead() throws {
        // The way capture tags photos: taginject + jifmux.
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let path = directory + "/jifmux.jpg"
        let result = try F.run("/usr/bin/gst-launch-1.0", [
            "-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=96,height=64", "!", "jpegenc", "!",
            "taginject", #"tags="device-manufacturer=Virtual,device-model=\"Virtual UVC Camera\",datetime=(GstDateTime)2026-11-30T14:32:05+01:00""#,
            "!", "jifmux", "!", "filesink", "location=\(path)",
        ])
        try #require(result.status == 0, "gst-launch-1.0 failed: \(result.standardError)")
        let header = try #require(try FileBytes.withFile(path) { JPEGReader.header(of: $0) })
        #expect(header.size == PixelSize(width: 96, height: 64))
        #expect(header.exif?.camera == "Virtual UVC Camera")
        #expect(header.exif?.dateTimeOriginal == "2026:11:30 14:32:05")
        #expect(try FileBytes.withFile(path) { JPEGReader.isComplete($0) })
    }

    @Test func exifDateWithoutOffsetIsLocalTime() {
        let summary = EXIFSummary(make: "Acme", model: "X100", dateTimeOriginal: "2026:11:30 14:32:05")
        #expect(summary.camera == "Acme X100")
        #expect(summary.dateTaken(utcOffset: { _ in 3600 })?.timeIntervalSince1970 == 1_796_045_525)
        #expect(summary.dateTaken(utcOffset: { _ in 0 })?.timeIntervalSince1970 == 1_796_049_125)
        #expect(EXIFSummary(dateTimeOriginal: "0000:00:00 00:00:00").dateTaken(utcOffset: { _ in 0 }) == nil)
        #expect(EXIFSummary(dateTimeOriginal: "    :  :     :  :  ").dateTaken(utcOffset: { _ in 0 }) == nil)
    }

    @Test func cameraDoesNotRepeatTheMake() {
        #expect(EXIFSummary(make: "Canon", model: "Canon EOS R6").camera == "Canon EOS R6")
        #expect(EXIFSummary(make: "Canon").camera == "Canon")
        #expect(EXIFSummary().camera == nil)
    }

    @Test func galleryPhotoCombinesTheReaders() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let path = directory + "/tagged.jpg"
        try F.makeJPEG(width: 160, height: 120, at: path)
        try F.tagEXIF(path, byteOrder: "MM", tags: ["Make": "Acme", "Model": "Acme Q", "DateTimeOriginal": "2025:01:02 03:04:05"])
        let photo = try #require(GalleryPhoto(path: path, environment: F.environment(["HOME": "/h"], utcOffset: 0)))
        #expect(photo.format == .jpeg)
        #expect(photo.size == PixelSize(width: 160, height: 120))
        #expect(photo.byteCount == F.bytes(path).count)
        #expect(photo.camera == "Acme Q")
        #expect(photo.dateSource == .exif)
        #expect(photo.dateText == "2025-01-02T03:04:05.000+00:00")
        #expect(photo.isComplete)
        // A PNG saved as .jpg is recognised by its content.
        try F.makePNG(width: 10, height: 20, at: directory + "/actually.jpg")
        let png = try #require(GalleryPhoto(path: directory + "/actually.jpg"))
        #expect(png.format == .png)
        #expect(png.size == PixelSize(width: 10, height: 20))
        #expect(png.dateSource == .modificationTime)
    }
}
