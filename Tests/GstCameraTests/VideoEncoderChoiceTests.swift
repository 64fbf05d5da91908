import Foundation
import Glibc
import Testing
@testable import CameraErrors
@testable import PipelineFiles
@testable import Session

/// The encoder order and the reason printed with the choice.
@Suite(.serialized) struct VideoEncoderChoiceTests {
    @Test func theFirstUsableEncoderIsChosenAndTheReasonNamesTheOnesSkipped() throws {
        let choice = try VideoEncoderChoice.choose()
        #expect(choice.codec == .h264)
        // No VA-API or V4L2 encoder on this machine (no GPU, no m2m device): the first software one.
        #expect(choice.encoder == "openh264enc", "\(choice.reason)")
        #expect(choice.reason.hasPrefix("openh264enc (H.264 in MP4, software): "), "\(choice.reason)")
        for skipped in ["vah264lpenc", "vah264enc", "v4l2h264enc"] {
            #expect(choice.reason.contains("\(skipped) is not available here"), "\(choice.reason)")
        }
        #expect(try VideoEncoderChoice.choose(.vp9).encoder == "vp9enc")
    }

    /// An encoder that is not installed is passed over for the next, and the reason says which package has it.
    @Test func aMissingEncoderFallsBackToTheNextAndSaysWhy() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shipped = try PipelineDirectory.find()
        for name in try FileManager.default.contentsOfDirectory(atPath: shipped) {
            var text = try String(contentsOfFile: shipped + "/" + name, encoding: .utf8)
            // As on a machine without gstreamer1.0-plugins-bad's openh264enc and without x264enc.
            if name == "record-openh264.branch" { text = text.replacingOccurrences(of: "openh264enc", with: "x264enc") }
            if name == "record-x264.branch" || name == "record-openh264.branch" {
                text = text.replacingOccurrences(of: "x264enc", with: "gstcamnosuchenc")
            }
            try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
        let previous = getenv("GSTCAM_PIPELINES_DIR").map { String(cString: $0) }
        setenv("GSTCAM_PIPELINES_DIR", folder, 1)
        defer { if let previous { setenv("GSTCAM_PIPELINES_DIR", previous, 1) } else { unsetenv("GSTCAM_PIPELINES_DIR") } }
        let choice = try VideoEncoderChoice.choose()
        #expect(choice.encoder == "vp8enc" && choice.codec == .vp8, "\(choice.reason)")
        #expect(choice.reason.contains("gstcamnosuchenc is not installed"), "\(choice.reason)")
        #expect(throws: CameraError.self) { try VideoEncoderChoice.choose(.h264) }
    }
}
