import CGStreamer
import LinuxSystem
import Synchronization
import CameraErrors
import GStreamer
import PipelineFiles

/// Plays a recorded video in the photo viewer's window: pipelines/viewer.player decodes it in real time and each
/// frame is handed to `frame` (which pushes it into the viewer's window) on a thread of the player's own, until the
/// end of the video, an error (`ended` gets the reason) or `stop()`.
final class VideoPlayer: Sendable {
    private let pipeline: Element
    private let stopped = Atomic<Bool>(false)

    private init(pipeline: Element) { self.pipeline = pipeline }

    /// Starts playing `path`. Throws when the pipeline file is missing or broken, or the player does not start.
    static func start(path: String, frame: @escaping @Sendable (DecodedPicture) -> Void,
                      ended: @escaping @Sendable (_ failure: String?) -> Void) throws -> VideoPlayer {
        let file = try PipelineFile.load("viewer.player")
        let pipeline = try PipelineParser.parsePipeline(try file.description(with: ["path": path]), file: file.path)
        guard let sink = pipeline.child(named: "frame") else {
            throw CameraError.missingPipelineElement(file: file.path, name: "frame", purpose: "the appsink the video's frames leave by")
        }
        guard pipeline.setState(GST_STATE_PLAYING) != .failure else {
            pipeline.setState(GST_STATE_NULL)
            throw CameraError.stateChangeFailed(to: "PLAYING", detail: "the video player (\(file.path)) did not start")
        }
        let player = VideoPlayer(pipeline: pipeline)
        BlockingThread.start(named: "gstcam-viewer-player") {
            let appSink = gstcam_as_app_sink(sink.pointer)
            var failure: String?
            while !player.stopped.load(ordering: .relaxed) {
                if let sample = gst_app_sink_try_pull_sample(appSink, 100_000_000) {
                    frame(DecodedPicture(OwnedSample(sample)))
                    continue
                }
                if let bus = pipeline.bus,
                   let message = gst_bus_pop_filtered(bus.pointer, GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue)) {
                    failure = PhotoViewer.errorText(message)
                    gst_message_unref(message)
                    break
                }
                if gst_app_sink_is_eos(appSink) != 0 { break }
            }
            let wasStopped = player.stopped.exchange(true, ordering: .relaxed)
            pipeline.setState(GST_STATE_NULL)
            if !wasStopped { ended(failure) }
        }
        return player
    }

    /// Stops playing (the last frame stays in the window); `ended` is not called.
    func stop() {
        stopped.store(true, ordering: .relaxed)
    }
}
