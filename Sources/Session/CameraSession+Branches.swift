import CGStreamer
import CameraErrors
import GStreamer

/// Branches added to a running session by other parts of the library (a recording, a network stream): they hang
/// off the session's tee next to the preview and photo branches, through the tee's one owner (`TeeBranches`).
extension CameraSession {
    /// What the session's tee carries, as caps naming the raw format ("video/x-raw,format=YUY2"), for parsing a
    /// branch file before `attachBranch` (`PipelineParser.parseBin(_:file:inputCaps:)`); nil when not running.
    public var branchInputCaps: String? { (try? runningPipeline())?.branches.inputCaps }

    /// Adds `bin` to the running pipeline and links the tee to its `input`; frames flow into it from then on, in
    /// the format the camera streams now (the branch must convert what it needs: the camera is not renegotiated).
    /// `beforeLinking` gets the tee's new pad before any buffer or event can pass it (to add probes).
    /// Throws `notRunning` (or the session's failure) when there is no running pipeline.
    public func attachBranch(_ bin: Element, input: Pad, what: String, beforeLinking: ((Pad) -> Void)? = nil) throws -> TeeBranch {
        let pipeline = try runningPipeline()
        do {
            // The branch takes the caps the tee carries now. Linking sends RECONFIGURE upstream, and v4l2src answers
            // it by negotiating again — with the new branch's preferences (e.g. I420) — and setting the format while
            // streaming, which a real driver refuses (vivid: S_FMT EBUSY) and the session fails.
            return try pipeline.branches.attach(bin, input: input, beforeLinking: { teePad in
                teePad.addProbe(GST_PAD_PROBE_TYPE_EVENT_UPSTREAM) { data in
                    guard let event = gstcam_probe_info_event(data.info), gstcam_event_type(event) == GST_EVENT_RECONFIGURE else {
                        return GST_PAD_PROBE_OK
                    }
                    return GST_PAD_PROBE_DROP
                }
                beforeLinking?(teePad)
            })
        } catch {
            throw CameraError.negotiationFailed(device: pipeline.device, detail: "\(what) could not be linked to the camera's tee (\(error))")
        }
    }

    /// Takes a branch added by `attachBranch` out of the pipeline (it goes to NULL); nothing happens once the
    /// session has stopped (its pipeline, branches included, is gone).
    public func detachBranch(_ branch: TeeBranch) {
        guard let pipeline = shared.withLock({ $0.pipeline }) else { return }
        pipeline.branches.detach(branch)
    }
}
