import Foundation
import Testing
@testable import MediaFiles

/// A camera's JPEG without Huffman tables (allowed in Motion-JPEG) becomes a photo file with the standard ones.
@Suite struct MotionJPEGTablesTests {
    /// The Huffman tables of a JPEG's DHT segments, each as its class/id byte, 16 counts and values.
    static func huffmanTables(_ jpeg: [UInt8]) -> Set<[UInt8]> {
        var tables: Set<[UInt8]> = []
        for segment in segments(jpeg) where segment.marker == 0xC4 {
            var body = segment.body[...]
            while body.count >= 17 {
                let counts = body.dropFirst().prefix(16)
                let total = counts.reduce(0) { $0 + Int($1) }
                tables.insert(Array(body.prefix(17 + total)))
                body = body.dropFirst(17 + total)
            }
        }
        return tables
    }

    /// The marker segments before the first scan.
    static func segments(_ jpeg: [UInt8]) -> [(marker: UInt8, body: [UInt8])] {
        var result: [(UInt8, [UInt8])] = []
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            result.append((jpeg[offset + 1], Array(jpeg[(offset + 4)..<(offset + 2 + length)])))
            offset += 2 + length
        }
        return result
    }

    /// `jpeg` without its DHT segments, as many webcams send their frames.
    static func strippingTables(_ jpeg: [UInt8]) -> [UInt8] {
        var result: [UInt8] = [0xFF, 0xD8]
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if jpeg[offset + 1] != 0xC4 { result += jpeg[offset..<(offset + 2 + length)] }
            offset += 2 + length
        }
        return result + jpeg[offset...]
    }

    /// Decoded RGB pixels of a JPEG file, by GStreamer's jpegdec.
    static func decoded(_ path: String) throws -> [UInt8] {
        let raw = path + ".rgb"
        let result = try runProcess("/usr/bin/gst-launch-1.0", ["-q", "filesrc", "location=\(path)", "!", "jpegdec", "!",
                                                                "videoconvert", "!", "video/x-raw,format=RGB", "!", "filesink", "location=\(raw)"])
        #expect(result.status == 0, "\(result.error)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    @Test func aJPEGWithoutHuffmanTablesGetsTheStandardOnesAndDecodesTheSame() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // libjpeg (jpegenc) codes with the standard tables of the JPEG specification unless told to optimise.
        let original = folder + "/original.jpg"
        let encode = try runProcess("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "!",
                                                                "video/x-raw,width=320,height=240,format=I420", "!", "jpegenc", "!",
                                                                "filesink", "location=\(original)"])
        #expect(encode.status == 0, "\(encode.error)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
        let standard = Self.huffmanTables(bytes)
        #expect(standard.count == 4)

        let stripped = Self.strippingTables(bytes)
        #expect(Self.huffmanTables(stripped).isEmpty && stripped.count < bytes.count)
        let completed = MotionJPEGTables.completed(stripped)
        #expect(Self.huffmanTables(completed) == standard)
        let repaired = folder + "/repaired.jpg"
        try Data(completed).write(to: URL(fileURLWithPath: repaired))
        #expect(try Self.decoded(repaired) == Self.decoded(original))

        // A JPEG that has tables is left as it is.
        #expect(MotionJPEGTables.completed(bytes) == bytes)
    }
}
