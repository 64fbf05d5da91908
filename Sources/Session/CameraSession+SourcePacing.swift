import CGStreamer
import CameraErrors
import GStreamer

extension CameraSession {
    /// The clocksync the session puts in front of the tee when the source is not live.
    static let pacerName = "source-pace"

    /// A source that is not live (a pipeline file of one's own: a video file, `videotestsrc` without `is-live`)
    /// makes frames as fast as they are asked for, and no branch of a camera session asks at the clock's pace:
    /// photos, frames, recordings and the network take frames as they come (their sinks do not sync), and the
    /// window's queue leaks. Such a source ran thousands of frames a second on a core of its own, and a window
    /// froze on its first frame waiting for frames timed minutes ahead. A `clocksync` before the tee lets each
    /// frame through at its time, as a camera delivers it, to every branch. (Like a live source, it also makes the
    /// pipeline start without prerolling.) Also put in front of a source that may or may not be live (a bin):
    /// `play` lets it pass frames through once the source turns out live.
    static func paceByClock(tee: Element, file: String) throws {
        let pacer = try Element.make("clocksync", name: pacerName)
        guard let teeInput = tee.staticPad("sink"), let upstream = teeInput.peer else {
            throw CameraError.badPipelineFile(file: file, detail: "nothing is linked to the tee named split")
        }
        // The tee's own bin: a link across bins would need ghost pads.
        guard let bin = tee.parent, bin.add(pacer) else {
            throw CameraError.badPipelineFile(file: file, detail: "a clocksync named \(pacerName) could not be added beside the tee named split "
                + "(is an element already named so?)")
        }
        guard upstream.unlink(from: teeInput), let pacerInput = pacer.staticPad("sink"), let pacerOutput = pacer.staticPad("src"),
              upstream.link(to: pacerInput) == .ok, pacerOutput.link(to: teeInput) == .ok else {
            throw CameraError.badPipelineFile(file: file, detail: "a clocksync could not be put in front of the tee named split")
        }
    }

    /// Sets `pipeline` playing. A source whose liveness could not be told when the pipeline was made (a bin:
    /// rtspsrc, uridecodebin) has told it by starting: a live one does not preroll. Then its frames pass the
    /// clocksync unsynchronised and the window shows each as it arrives, as for a camera.
    func play(_ pipeline: Pipeline) -> StateChangeResult {
        let result = pipeline.pipeline.setState(GST_STATE_PLAYING)
        guard result != .failure, let source = pipeline.pipeline.child(named: "source"), source.isLiveSource == nil,
              source.lastStateChange == .noPreroll else { return result }
        pipeline.pipeline.child(named: Self.pacerName)?.set("sync", false)
        if let window = pipeline.window?.child(named: Self.windowSinkName), window.hasProperty("sync") { window.set("sync", false) }
        return result
    }
}
