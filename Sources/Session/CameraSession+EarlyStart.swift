import GStreamer

extension CameraSession {
    /// Starts GStreamer (gst_init, the plugin registry) on a thread of its own and returns at once, for a
    /// caller that knows a session will follow and has other work to do first: `gstcam capture` probes the
    /// camera and chooses its mode meanwhile. The session waits for it, if need be, when it builds its pipeline.
    public static func startGStreamerEarly() {
        GStreamerRuntime.initializeInBackground()
    }
}
