import CGStreamer
import CameraErrors
import GStreamer

extension CameraSession {
    /// The clocksync the session puts in front of the tee when the source is not known to be live.
    static let pacerName = "source-pace"

    /// A source that is not live (a pipeline file of one's own: a video file, `videotestsrc` without `is-live`)
    /// makes frames as fast as they are asked for, and no branch of a camera session asks at the clock's pace:
    /// photos, frames, recordings and the network take frames as they come (their sinks do not sync), and the
    /// window's queue leaks. Such a source ran thousands of frames a second on a core of its own, and a window
    /// froze on its first frame waiting for frames timed minutes ahead. A `clocksync` before the tee lets each
    /// frame through at its time, as a camera delivers it, to every branch. (Like a live source, it also makes the
    /// pipeline start without prerolling.)
    ///
    /// A source whose liveness cannot be told before it streams (`sourceIsLive` nil: a bin such as uridecodebin or
    /// rtspsrc) gets the clocksync too, and at its first frame a latency query upstream says: a live one's frames
    /// then pass unsynchronised (the clocksync would hold each for the source's latency) and the window shows
    /// them as they arrive, as for a camera.
    static func paceByClock(pipeline: Element, tee: Element, file: String, sourceIsLive: Bool?) throws {
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
        guard sourceIsLive == nil else { return }
        // The pipeline weakly, the rest looked up through it: the probe, kept by the clocksync's pad until the first
        // frame, must not keep a pipeline alive that never streams.
        pacerInput.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { [weak pipeline] _ in
            // Before the clocksync sees the frame: a live source's first frame passes unsynchronised too.
            if let pipeline, let pacer = pipeline.child(named: pacerName), pacer.staticPad("sink")?.upstreamIsLive == true {
                pacer.set("sync", false)
                showFramesAsTheyArrive(in: pipeline.child(named: windowSinkName))
            }
            return GST_PAD_PROBE_REMOVE
        }
    }

    /// A live source (a camera) paces its frames itself, so the window's sink shows each as it arrives. Synchronised
    /// to the clock, it would first hold every frame for the pipeline's latency — v4l2src's is one frame, 33 ms at
    /// 30 fps, 200 ms at 5 — and the viewfinder would lag by that much.
    static func showFramesAsTheyArrive(in windowSink: Element?) {
        if let windowSink, windowSink.hasProperty("sync") { windowSink.set("sync", false) }
    }
}
