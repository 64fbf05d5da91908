import Foundation
import Testing
@testable import GstCamera

/// `--codec mjpeg`: the camera's own JPEG frames into Matroska without re-encoding, read by FFmpeg; a camera mode
/// without MJPEG is refused with a message. Private virtual cameras (their own state folder), so no other test's
/// camera is busy: /dev/video0 sends only Motion-JPEG, /dev/video2 only raw frames.
@Suite struct RecordMJPEGTests {
    @Test func theCamerasJPEGsAreRecordedAsTheyAreAndARawModeIsRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = try privateVirtualCameras("/dev/video0=basic,formats=MJPG,color=e61e1e;/dev/video2=basic,color=1e3ce6",
                                                    in: folder)

        let path = folder + "/camera.mkv"
        let recorded = try gstcam(["record", "--device", "/dev/video0", "--width", "320", "--height", "240", "--codec", "mjpeg",
                                   "--duration", "1", "-o", path], environment: environment)
        #expect(recorded.status == 0, "\(recorded.error)")
        #expect(recorded.error.contains("not re-encoded"), "\(recorded.error)")
        let probed = try ProbedVideo.read(path)
        #expect(probed.codec == "mjpeg" && probed.width == 320 && probed.height == 240, "\(probed)")
        #expect(probed.frames == 30, "\(probed.frames) frames")
        #expect(try decodeEveryFrame(path).status == 0)
        // The camera's picture: its identity colour (red) in the decoded frames.
        let frames = try decodedFrames(path, width: 320, height: 240)
        let (red, green, blue) = identityColour(try #require(frames.first), width: 320, height: 240)
        #expect(red > 180 && green < 80 && blue < 80, "\(red) \(green) \(blue)")

        let refused = try gstcam(["record", "--device", "/dev/video2", "--width", "320", "--height", "240", "--codec", "mjpeg",
                                  "--duration", "1", "-o", folder + "/raw.mkv"], environment: environment)
        #expect(refused.status == 1)
        #expect(refused.error.contains("/dev/video2 delivers no Motion-JPEG in the mode used"), "\(refused.error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/raw.mkv"))
    }

    /// `--segment` and sound with the camera's JPEGs: consecutive Matroska files, each opening on a whole picture (every
    /// JPEG is one), with Opus sound; no frame lost between them. Digital zoom is refused: it is not in those frames.
    @Test func mjpegIsSegmentedWithSoundAndZoomIsRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = try privateVirtualCameras("/dev/video0=basic,formats=MJPG,color=e61e1e", in: folder)

        let recorded = try gstcam(["record", "--device", "/dev/video0", "--width", "320", "--height", "240", "--codec", "mjpeg",
                                   "--segment", "1", "--duration", "2.5", "--audio-test-tone", "-o", folder + "/clip.mkv"],
                                  environment: environment)
        #expect(recorded.status == 0, "\(recorded.error)")
        let files = (1...3).map { folder + String(format: "/clip_%05d.mkv", $0) }
        #expect(!FileManager.default.fileExists(atPath: folder + "/clip_00004.mkv"))
        var frames = 0
        for file in files {
            let probed = try ProbedVideo.read(file)
            #expect(probed.codec == "mjpeg" && probed.width == 320 && probed.height == 240, "\(file): \(probed)")
            frames += probed.frames
            let audio = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                           "stream=codec_name", "-of", "csv=p=0", file])
            #expect(audio.output.trimmingCharacters(in: .whitespacesAndNewlines) == "opus", "\(file): \(audio.output) \(audio.error)")
            let decoded = try decodeEveryFrame(file)
            #expect(decoded.status == 0 && decoded.errors.isEmpty, "\(file): \(decoded.errors)")
        }
        // 2.5 s at 30 fps, split over the files with none lost or repeated at the cuts.
        #expect(frames == 75, "\(frames) frames in \(files.count) files")

        let zoomed = try gstcam(["record", "--device", "/dev/video0", "--width", "320", "--height", "240", "--codec", "mjpeg",
                                 "--zoom", "2", "--duration", "1", "-o", folder + "/zoomed.mkv"], environment: environment)
        #expect(zoomed.status == 1)
        #expect(zoomed.error.contains("--codec mjpeg records the camera's own JPEG frames, which are taken before the zoom"),
                "\(zoomed.error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/zoomed.mkv"))
    }
}
