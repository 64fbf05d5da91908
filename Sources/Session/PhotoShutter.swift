import Synchronization
import CameraErrors
import GStreamer
import MediaFiles
import PipelineFiles

/// The photo branches of one pipeline, one per format, each kept linked once made (see `PhotoBranch`). The
/// JPEG branch is made with the pipeline, before it plays, so the first photo is as quick as the rest; a
/// PNG branch is added the first time a PNG is asked for.
final class PhotoShutter: Sendable {
    private struct State {
        var branches: [PhotoFormat: PhotoBranch] = [:]
        var failure: CameraError?
    }

    private let state = Mutex(State())
    private let pipeline: Element
    private let tee: Element
    private let branches: TeeBranches
    private let files: [PhotoFormat: PipelineFile]
    private let parameters: [PhotoFormat: [String: String]]
    private let photographed = PhotographedFrames()

    init(pipeline: Element, tee: Element, branches: TeeBranches, files: [PhotoFormat: PipelineFile], jpegQuality: Int) {
        self.pipeline = pipeline
        self.tee = tee
        self.branches = branches
        self.files = files
        parameters = [.jpeg: ["quality": "\(min(100, max(1, jpegQuality)))"], .png: [:]]
        // A branch that cannot be made (e.g. jifmux not installed) must not stop the preview: the first
        // photo tries again and reports why.
        _ = try? branch(for: .jpeg)
    }

    /// The branch for `format`, made and linked on first use.
    func branch(for format: PhotoFormat) throws -> PhotoBranch {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            if let branch = state.branches[format] { return branch }
            let branch = try PhotoBranch(pipeline: pipeline, tee: tee, branches: branches, file: files[format]!,
                                         parameters: parameters[format] ?? [:], photographed: photographed)
            state.branches[format] = branch
            return branch
        }
    }

    /// Stops (and resumes) every branch keeping the newest frame, around a camera switch: a frame held from
    /// the camera being left would keep its device open.
    func holdFrames(_ on: Bool) {
        let branches = state.withLock { Array($0.branches.values) }
        for branch in branches { branch.holdFrames(on) }
    }

    /// Ends every photo being taken with `error` (the session stopped or failed) and refuses new ones.
    func abort(_ error: CameraError) {
        let branches = state.withLock { state in
            state.failure = state.failure ?? error
            return Array(state.branches.values)
        }
        for branch in branches { branch.abort(error) }
    }
}
