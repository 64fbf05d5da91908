import CGStreamer
import Dispatch
import LinuxSystem

/// A branch hanging off a tee: its bin, the tee's request pad that feeds it, and the bin's input pad.
public final class TeeBranch: Sendable {
    public let bin: Element
    public let teePad: Pad
    public let input: Pad

    fileprivate init(bin: Element, teePad: Pad, input: Pad) {
        self.bin = bin
        self.teePad = teePad
        self.input = input
    }
}

/// Why a branch could not be added; the caller names its file in the error people see.
public enum TeeBranchError: Error, Equatable, Sendable {
    /// The tee gave no new source pad.
    case noTeePad
    /// The bin could not join the pipeline (e.g. a child's name is taken).
    case notAdded
    /// The bin refused to follow the pipeline's state.
    case notStarted
    /// Linking the tee's pad to the bin's input failed.
    case linkRefused(PadLinkResult)
}

/// The one owner of a tee's branches: every request pad is taken, linked, unlinked and released here, whether
/// the pipeline is being built or running (the way GNOME aperture's `pipeline_tee.rs` keeps its branches).
///
/// Adding: the bin joins the pipeline and starts before it is linked, so the RECONFIGURE that linking sends
/// upstream finds its pads active (an inactive branch answers caps queries with nothing: not-negotiated).
/// Removing: an IDLE probe on the tee's pad waits until no buffer is being pushed into the branch and unlinks
/// there, so the tee never pushes into a branch half taken apart; then the branch goes to NULL and leaves.
public final class TeeBranches: Sendable {
    private let pipeline: Element
    private let tee: Element

    /// How long removing waits for the tee's pad to be idle before unlinking anyway (a branch whose sink blocks
    /// forever, e.g. a window that no longer draws, must not hang the session).
    public static let idleWait: Duration = .seconds(1)

    /// The raw format the tee is expected to carry before it has negotiated ("YUY2"), e.g. the one the camera was
    /// asked for.
    private let expectedFormat: String?

    public init(pipeline: Element, tee: Element, expectedFormat: String? = nil) {
        self.pipeline = pipeline
        self.tee = tee
        self.expectedFormat = expectedFormat
    }

    /// What the tee carries as caps that name only the raw format ("video/x-raw,format=YUY2"): the format it has
    /// negotiated, else the one it is expected to carry; nil when neither is known. Branches are parsed behind
    /// these (`PipelineParser.parseBin(_:file:inputCaps:)`): only the format, as the whole caps (size, rate,
    /// colorimetry) made parsing display.branch slower again (4.4 ms against 3.0, timed as scripts/parse-timing does).
    public var inputCaps: String? {
        let negotiated = tee.staticPad("sink")?.currentCaps?.videoInfo?.format.rawValue
        return (negotiated ?? expectedFormat).flatMap { $0 == "unknown" ? nil : "video/x-raw,format=\($0)" }
    }

    /// Adds `bin` to the pipeline and links a new tee pad to `input` (a pad of the bin, usually its ghost "sink").
    /// `beforeLinking` gets the tee's new pad before any buffer can pass it (to add probes).
    public func attach(_ bin: Element, input: Pad, beforeLinking: ((Pad) -> Void)? = nil) throws(TeeBranchError) -> TeeBranch {
        guard let teePad = tee.requestPad("src_%u") else { throw .noTeePad }
        guard pipeline.add(bin) else {
            tee.releaseRequestPad(teePad)
            throw .notAdded
        }
        let branch = TeeBranch(bin: bin, teePad: teePad, input: input)
        guard bin.syncStateWithParent() else {
            dismantle(branch)
            throw .notStarted
        }
        beforeLinking?(teePad)
        let result = teePad.link(to: input)
        guard result == .ok else {
            dismantle(branch)
            throw .linkRefused(result)
        }
        return branch
    }

    /// Links a new tee pad to `input`, a pad of `bin`, which is already in the pipeline and running: a branch fed
    /// by two tees (a recording's video from one, its sound from another) is added with `attach` at the first
    /// and linked here to the second. Take it apart with `unlink`, before the bin is detached.
    public func link(_ bin: Element, input: Pad, beforeLinking: ((Pad) -> Void)? = nil) throws(TeeBranchError) -> TeeBranch {
        guard let teePad = tee.requestPad("src_%u") else { throw .noTeePad }
        beforeLinking?(teePad)
        let result = teePad.link(to: input)
        guard result == .ok else {
            tee.releaseRequestPad(teePad)
            throw .linkRefused(result)
        }
        return TeeBranch(bin: bin, teePad: teePad, input: input)
    }

    /// Unlinks a branch made by `link` once the tee's pad is idle (at most `idleWait`) and gives the pad back;
    /// the bin stays where it is (its own tee's owner takes it out).
    public func unlink(_ branch: TeeBranch) {
        unlinkWhenIdle(branch)
        tee.releaseRequestPad(branch.teePad)
    }

    /// Unlinks `branch` once the tee's pad is idle (at most `idleWait`), then stops it and takes it out.
    public func detach(_ branch: TeeBranch) {
        unlinkWhenIdle(branch)
        dismantle(branch)
    }

    private func unlinkWhenIdle(_ branch: TeeBranch) {
        let unlinked = DispatchSemaphore(value: 0)
        branch.teePad.addProbe(GST_PAD_PROBE_TYPE_IDLE) { _ in
            // Runs at once when the pad is idle, else on the streaming thread right after its current push.
            branch.teePad.unlink(from: branch.input)
            unlinked.signal()
            return GST_PAD_PROBE_REMOVE
        }
        if unlinked.wait(timeout: .now() + .nanoseconds(Int(Self.idleWait.inNanoseconds))) == .timedOut {
            branch.teePad.unlink(from: branch.input)
        }
    }

    private func dismantle(_ branch: TeeBranch) {
        branch.teePad.unlink(from: branch.input)
        tee.releaseRequestPad(branch.teePad)
        branch.bin.setState(GST_STATE_NULL)
        _ = pipeline.remove(branch.bin)
    }
}
