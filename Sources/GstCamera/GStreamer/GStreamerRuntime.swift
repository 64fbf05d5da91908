import CGStreamer

/// gst_init, done once per process however many sessions start and from whichever thread.
enum GStreamerRuntime {
    /// Swift initialises a global `let` exactly once, thread-safely (swift_once), which is what gst_init needs.
    private static let initialized: Bool = {
        gst_init(nil, nil)
        // libgsttag's tags (capturing-digital-zoom-ratio, …) exist only once registered; this registers them all.
        gst_tag_register_musicbrainz_tags()
        return true
    }()

    static func ensureInitialized() {
        _ = initialized
    }

    /// The GStreamer version this process runs, e.g. "1.22.0".
    static var version: String {
        ensureInitialized()
        guard let text = gst_version_string() else { return "unknown" }
        defer { g_free(text) }
        return String(cString: text)
    }
}

/// Takes ownership of a g_malloc'ed C string.
func takeGString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}
