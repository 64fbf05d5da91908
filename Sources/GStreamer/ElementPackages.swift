/// Which Debian package provides a GStreamer element factory, so that a missing element can be fixed
/// with one apt-get line. Covers what gstcam's pipelines and the common sinks use.
public enum ElementPackages {
    private static let packages: [String: String] = {
        var table: [String: String] = [:]
        let groups: [String: [String]] = [
            "libgstreamer1.0-0": ["tee", "queue", "queue2", "capsfilter", "fakesink", "fakesrc", "filesink",
                                  "filesrc", "identity", "valve", "multiqueue", "funnel", "input-selector",
                                  "output-selector", "clocksync"],
            "gstreamer1.0-plugins-base": ["videotestsrc", "videoconvert", "videoscale", "videorate", "appsink",
                                          "appsrc", "textoverlay", "clockoverlay", "timeoverlay", "compositor",
                                          "glimagesink", "audiotestsrc", "audioconvert", "audioresample", "opusenc"],
            "gstreamer1.0-plugins-good": ["v4l2src", "v4l2sink", "jpegenc", "jpegdec", "pngenc", "pngdec",
                                          "videocrop", "videobox", "videoflip", "autovideosink", "autovideosrc",
                                          "multifilesink", "cairooverlay", "gdkpixbufoverlay", "imagefreeze",
                                          "rtph264pay", "mp4mux", "qtmux", "matroskamux", "webmmux", "splitmuxsink",
                                          "vp8enc", "vp9enc", "v4l2h264enc", "autoaudiosrc", "pulsesrc", "aacparse"],
            "gstreamer1.0-plugins-bad": ["jifmux", "bayer2rgb", "kmssink", "waylandsink", "fbdevsink", "camerabin",
                                         "openh264enc", "h264parse", "vah264enc", "vah264lpenc", "voaacenc", "rsvgoverlay", "rsvgdec"],
            "gstreamer1.0-x": ["ximagesink", "xvimagesink"],
            "gstreamer1.0-plugins-ugly": ["x264enc"],
            "gstreamer1.0-gtk3": ["gtksink"],
        ]
        for (package, factories) in groups { for factory in factories { table[factory] = package } }
        return table
    }()

    /// The package for `factory`; nil for one not in the table: guessing a package for any unknown word would
    /// tell someone whose file has a typo, or is not a pipeline at all, to install plugins that cannot help.
    public static func package(for factory: String) -> String? {
        packages[factory]
    }
}
