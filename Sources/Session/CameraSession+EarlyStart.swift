import GStreamer
import MediaFiles
import PipelineFiles

extension CameraSession {
    /// Starts GStreamer (gst_init, the plugin registry) on a thread of its own and returns at once, for a
    /// caller that knows a session will follow and has other work to do first: `gstcam capture` probes the
    /// camera and chooses its mode meanwhile. The same thread loads the plugins that `configuration`'s pipeline
    /// file and the JPEG photo branch name, so that parsing them finds them loaded. The session waits for
    /// GStreamer, if need be, when it builds its pipeline; a file that cannot be read is left for the session
    /// to report.
    public static func startGStreamerEarly(for configuration: CameraConfiguration) {
        let files = [configuration.pipeline, "photo-\(PhotoFormat.jpeg.rawValue).branch"].compactMap { try? PipelineFile.load($0) }
        GStreamerRuntime.initializeInBackground(loading: files.flatMap(\.elementFactoryNames))
    }
}
