import CGStreamer
import GStreamer
import Session
import Testing

/// `gstcam capture` starts GStreamer on a thread of its own while it probes the camera (issue 13); whoever
/// needs GStreamer afterwards must find it wholly initialised, whichever thread got there first.
@Suite struct GStreamerEarlyStartTests {
    @Test func aCallerAfterTheEarlyStartFindsGStreamerInitialised() {
        CameraSession.startGStreamerEarly()
        CameraSession.startGStreamerEarly()  // again: nothing is initialised twice
        GStreamerRuntime.ensureInitialized()
        #expect(gst_is_initialized() != 0)
        // The last step of the initialisation: the tags a photo's EXIF is written from.
        #expect(gst_tag_exists("capturing-digital-zoom-ratio") != 0)
    }
}
