import CameraErrors
import GStreamer

/// Branches added to a running session by other parts of the library (a recording, a network stream): they hang
/// off the session's tee next to the preview and photo branches, through the tee's one owner (`TeeBranches`).
extension CameraSession {
    /// Adds `bin` to the running pipeline and links the tee to its `input`; frames flow into it from then on.
    /// Throws `notRunning` (or the session's failure) when there is no running pipeline.
    public func attachBranch(_ bin: Element, input: Pad, what: String) throws -> TeeBranch {
        let pipeline = try runningPipeline()
        do {
            return try pipeline.branches.attach(bin, input: input)
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
