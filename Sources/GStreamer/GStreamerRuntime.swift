import CGStreamer
import Glibc

/// gst_init, done once per process however many sessions start and from whichever thread.
public enum GStreamerRuntime {
    /// Swift initialises a global `let` exactly once, thread-safely (swift_once), which is what gst_init needs.
    private static let initialized: Bool = {
        // GStreamer 1.22.0's v4l2src keeps its buffer pool (and the element and 5–7 file descriptors with it)
        // alive after every stop when the driver can orphan buffers, which every vb2 driver, uvcvideo included,
        // has done since Linux 5.0: a session that restarts or switches cameras would run out of descriptors.
        // Draining the queue on stop takes the path that releases the pool (fixed upstream after 1.22;
        // docs/virtual-camera.md has the measurements). A value the user set is kept.
        setenv("GST_V4L2_FORCE_DRAIN", "1", 0)
        gst_init(nil, nil)
        // libgsttag's tags (capturing-digital-zoom-ratio, …) exist only once registered; this registers them all.
        gst_tag_register_musicbrainz_tags()
        return true
    }()

    public static func ensureInitialized() {
        _ = initialized
    }

    /// Starts gst_init on a thread of its own and returns at once, so that it runs while the caller does work
    /// of its own: `gstcam capture` probes the camera meanwhile, which on a camera's first open takes as long
    /// as gst_init's registry load (~10 ms each; one after the other they were a tenth of a cold photo).
    /// The same thread then loads the plugins of `factories` (the v4l2 plugin alone takes 1–3 ms to load and
    /// to look at the devices), which parsing the pipeline would otherwise do on the way to the first frame.
    /// Whoever needs GStreamer later calls `ensureInitialized()` as before, which waits for gst_init if it has
    /// not finished (swift_once): nothing can use GStreamer half-initialised. A plugin being loaded here when
    /// the parser wants it is waited for by GStreamer itself (plugins load under a lock).
    public static func initializeInBackground(loading factories: [String] = []) {
        let context = Unmanaged.passRetained(FactoryList(factories)).toOpaque()
        // A GLib thread, not a Foundation one: this module has no Foundation, and a GThread needs no set-up.
        g_thread_unref(g_thread_new("gstcam-gst-init", { context in
            let factories = Unmanaged<FactoryList>.fromOpaque(context!).takeRetainedValue().names
            GStreamerRuntime.ensureInitialized()
            for name in factories {
                guard let factory = gst_element_factory_find(name) else { continue }
                // A factory is a plugin feature (GstElementFactory derives from GstPluginFeature).
                if let loaded = gst_plugin_feature_load(factory) { gst_object_unref(UnsafeMutableRawPointer(loaded)) }
                gst_object_unref(UnsafeMutableRawPointer(factory))
            }
            return nil
        }, context))
    }

    /// The factory names handed to the loading thread (a class, to pass through GLib's `gpointer`).
    private final class FactoryList: Sendable {
        let names: [String]
        init(_ names: [String]) { self.names = names }
    }
}

/// Takes ownership of a g_malloc'ed C string.
public func takeGString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}
