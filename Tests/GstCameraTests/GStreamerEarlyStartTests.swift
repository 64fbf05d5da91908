import CGStreamer
import Cameras
import Glibc
import GStreamer
import PipelineFiles
import Session
import Testing

/// `gstcam capture` starts GStreamer, and loads its pipeline's plugins, on a thread of its own while it probes the
/// camera (issue 13); whoever needs GStreamer afterwards must find it wholly initialised, whichever thread got
/// there first.
@Suite struct GStreamerEarlyStartTests {
    @Test func aCallerAfterTheEarlyStartFindsGStreamerInitialised() {
        CameraSession.startGStreamerEarly(for: CameraConfiguration())
        CameraSession.startGStreamerEarly(for: CameraConfiguration(pipeline: "test-pattern"))  // nothing is initialised twice
        GStreamerRuntime.ensureInitialized()
        #expect(gst_is_initialized() != 0)
        // The last step of the initialisation: the tags a photo's EXIF is written from.
        #expect(gst_tag_exists("capturing-digital-zoom-ratio") != 0)
    }

    @Test func theFactoriesNamedAreTheElementsOfTheFile() throws {
        #expect(try PipelineFile.load("default").elementFactoryNames == ["v4l2src", "capsfilter", "videocrop", "videoscale", "tee"])
        #expect(try PipelineFile.load("photo-jpeg.branch").elementFactoryNames == ["queue", "videoconvert", "jpegenc", "jifmux", "appsink"])
        // Caps, the `${sink}` placeholder and element references are no factories.
        let window = try PipelineFile.load("display.branch").elementFactoryNames
        #expect(window == ["queue", "videoscale", "capsfilter", "videoconvert", "identity", "textoverlay"])
    }

    @Test func everyFactoryTheShippedCameraPipelinesNameExists() throws {
        GStreamerRuntime.ensureInitialized()
        for file in ["default", "mjpeg", "photo-jpeg.branch", "photo-camera-jpeg.branch", "display.branch"] {
            for name in try PipelineFile.load(file).elementFactoryNames {
                let factory = gst_element_factory_find(name)
                #expect(factory != nil, "\(file): \(name) is no element factory")
                if let factory { gst_object_unref(UnsafeMutableRawPointer(factory)) }
            }
        }
    }

    /// `gstcam capture` skips the early start when a camera screen may take its photo: a socket of one is there.
    @Test func aScreenSocketIsSeenWithoutOpeningACamera() throws {
        var template = Array("/tmp/gstcam-early-XXXXXX".utf8CString)
        let folder = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer { _ = rmdir(folder) }
        let environment = ["XDG_RUNTIME_DIR": folder]
        #expect(!RemoteSocketPath.anyExists(environment: environment))
        let other = folder + "/pulse.sock", screen = RemoteSocketPath.path(forKey: "video12", environment: environment)
        #expect(close(creat(other, 0o600)) == 0)
        defer { _ = unlink(other) }
        #expect(!RemoteSocketPath.anyExists(environment: environment))
        #expect(close(creat(screen, 0o600)) == 0)
        defer { _ = unlink(screen) }
        #expect(RemoteSocketPath.anyExists(environment: environment))
    }
}
