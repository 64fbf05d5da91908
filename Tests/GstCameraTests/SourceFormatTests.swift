import Foundation
import Testing
@testable import Cameras
import V4L2
@testable import GstCamera
import CGStreamer
@testable import GStreamer
@testable import Session

/// The camera streams the mode gstcam chose and says it uses: the mode's raw format is asked of v4l2src through the
/// pipeline's `source-caps`. Left to itself, v4l2src takes the format it ranks first, whatever gstcam chose.
@Suite struct SourceFormatTests {
    @Test func aModesCapsNameItsRawFormat() {
        let nv12 = CameraMode(pixelFormat: .nv12, width: 640, height: 480, frameRate: 30, kind: .raw)
        #expect(nv12.caps == "video/x-raw,width=640,height=480,framerate=30/1,format=NV12")
        let yuyv = CameraMode(pixelFormat: .yuyv, width: 1280, height: 720, frameRate: FrameRate(numerator: 25, denominator: 2)!, kind: .raw)
        #expect(yuyv.caps == "video/x-raw,width=1280,height=720,framerate=25/2,format=YUY2")
        let mjpeg = CameraMode(pixelFormat: .mjpeg, width: 1920, height: 1080, frameRate: 30, kind: .motionJPEG)
        #expect(mjpeg.caps == "image/jpeg,width=1920,height=1080,framerate=30/1")
    }

    /// A camera listing NV12 before YUYV: gstcam picks NV12 (the first of equals) and says so. Before, v4l2src
    /// streamed YUYV all the same (GStreamer's own log: "fixated to: … format=(string)YUY2").
    @Test func theCameraStreamsTheFormatGstcamChose() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var environment = try privateVirtualCameras("/dev/video0=basic,formats=NV12+YUYV,color=e61e1e", in: folder)
        environment["GST_DEBUG"] = "v4l2src:4"
        environment["GST_DEBUG_NO_COLOR"] = "1"
        let run = try gstcam(["preview", "--device", "/dev/video0", "--sink", "none", "--duration", "1"], environment: environment)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("raw (NV12)"), "\(run.error)")
        let fixated = run.error.split(separator: "\n").first { $0.contains("fixated to:") }.map(String.init)
        #expect(fixated?.contains("format=(string)NV12") == true, "\(fixated ?? run.error)")
    }
}

/// `${format}` in a camera pipeline's `source-caps`: the chosen mode's format, else every raw format.
@Suite struct FormatParameterTests {
    @Test func aChosenFormatIsItsGStreamerName() {
        #expect(CameraSession.formatParameter(.yuyv) == "YUY2")
        #expect(CameraSession.formatParameter(PixelFormat(fourcc: "GREY")!) == "GRAY8")
    }

    @Test func noFormatAllowsEveryRawFormat() throws {
        GStreamerRuntime.ensureInitialized()
        let list = CameraSession.formatParameter(nil)
        let caps = try #require(gst_caps_from_string("video/x-raw,format=\(list)"), "\(list) is not a caps list")
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(caps).assumingMemoryBound(to: GstMiniObject.self)) }
        for format in ["YUY2", "NV12", "I420", "GRAY8", "BGRx", "RGB16", "UYVY"] {
            let one = try #require(gst_caps_from_string("video/x-raw,format=\(format)"))
            defer { gst_mini_object_unref(UnsafeMutableRawPointer(one).assumingMemoryBound(to: GstMiniObject.self)) }
            #expect(gst_caps_is_subset(one, caps) != 0, "\(format) is not in \(list)")
        }
    }
}
