import CGStreamer
import GStreamer

/// GstCamera's version — the one place it is written. `gstcam --version` prints it; scripts/package-deb and the
/// man pages take it from there.
public enum GstCameraVersion {
    public static let string = "0.1.0"

    /// The GStreamer library loaded at run time, e.g. "GStreamer 1.22.0" (gst_version_string; no gst_init needed).
    public static var gstreamer: String {
        takeGString(gst_version_string()) ?? "GStreamer (unknown version)"
    }

    /// The number alone, e.g. "1.22.0" (a fourth part appears for pre-releases and git builds).
    public static var gstreamerNumber: String {
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return nano == 0 ? "\(major).\(minor).\(micro)" : "\(major).\(minor).\(micro).\(nano)"
    }
}
