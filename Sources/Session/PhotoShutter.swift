import CGStreamer
import Synchronization
import CameraErrors
import GStreamer
import MediaFiles
import PipelineFiles

/// The photo branches of one pipeline, one per format, each kept linked once made (see `PhotoBranch`). The
/// JPEG branch is made with the pipeline, before it plays, so the first photo is as quick as the rest; a
/// PNG branch is added the first time a PNG is asked for.
///
/// A Motion-JPEG pipeline with a `camera-jpeg` tee (in front of its decoder) also gets the camera's own JPEGs:
/// a JPEG photo whose pixels nothing changes (no digital zoom) is then the camera's image with EXIF added
/// (photo-camera-jpeg.branch), made with the pipeline instead of the decoding JPEG branch, which waits for
/// the first zoomed photo.
final class PhotoShutter: Sendable {
    private struct State {
        var branches: [PhotoFormat: PhotoBranch] = [:]
        var cameraJPEG: PhotoBranch?
        var failure: CameraError?
    }

    /// The camera's JPEGs: the tee they pass, its branches, and the branch file that makes photos of them.
    struct CameraJPEG: Sendable {
        let tee: Element
        let branches: TeeBranches
        let file: PipelineFile
    }

    private let state = Mutex(State())
    private let pipeline: Element
    private let tee: Element
    private let branches: TeeBranches
    private let files: [PhotoFormat: PipelineFile]
    private let parameters: [PhotoFormat: [String: String]]
    /// What is drawn on every photo: pipelines/photo-stamp.branch in front of each branch, and its strftime format.
    private let stamp: (file: PipelineFile, format: String)?
    /// The picture is turned (`FrameOrientation`) in front of the tee, which the camera's own JPEGs are not.
    private let turned: Bool
    /// The camera's own JPEGs, where the pipeline has them (a `camera-jpeg` tee): photos, and `--codec mjpeg` recordings.
    let cameraJPEG: CameraJPEG?
    private let photographed = PhotographedFrames()

    init(pipeline: Element, tee: Element, branches: TeeBranches, files: [PhotoFormat: PipelineFile], jpegQuality: Int,
         cameraJPEG: CameraJPEG? = nil, stamp: (file: PipelineFile, format: String)? = nil, turned: Bool = false) {
        self.pipeline = pipeline
        self.tee = tee
        self.branches = branches
        self.files = files
        self.cameraJPEG = cameraJPEG
        self.stamp = stamp
        self.turned = turned
        parameters = [.jpeg: ["quality": "\(min(100, max(1, jpegQuality)))"], .png: [:]]
        // A branch that cannot be made (e.g. jifmux not installed) must not stop the preview: the first
        // photo tries again and reports why.
        _ = try? branch(for: .jpeg, unchangedPixels: true)
    }

    /// The branch for a photo in `format`, made and linked on first use: the camera's own JPEGs for a JPEG
    /// whose pixels are the camera's (`unchangedPixels`: no digital zoom; no stamp, not turned) when the pipeline
    /// offers them.
    func branch(for format: PhotoFormat, unchangedPixels: Bool) throws -> PhotoBranch {
        if format == .jpeg, unchangedPixels, stamp == nil, !turned, let cameraJPEG {
            return try state.withLock { state in
                if let failure = state.failure { throw failure }
                if let branch = state.cameraJPEG { return branch }
                // Motion-JPEG frames may rely on the standard Huffman tables; a photo file carries them.
                let branch = try PhotoBranch(pipeline: pipeline, tee: cameraJPEG.tee, branches: cameraJPEG.branches,
                                             file: cameraJPEG.file, parameters: [:], photographed: photographed,
                                             finish: MotionJPEGTables.completed, copiesFrames: true)
                state.cameraJPEG = branch
                return branch
            }
        }
        return try state.withLock { state in
            if let failure = state.failure { throw failure }
            if let branch = state.branches[format] { return branch }
            let branch = try PhotoBranch(pipeline: pipeline, tee: tee, branches: branches, file: files[format]!,
                                         parameters: parameters[format] ?? [:], photographed: photographed,
                                         addsPNGEXIFChunk: format == .png, stamp: stamp)
            state.branches[format] = branch
            return branch
        }
    }

    /// Stops (and resumes) every branch keeping the newest frame, around a camera switch: a frame held from
    /// the camera being left would keep its device open.
    func holdFrames(_ on: Bool) {
        let branches = state.withLock { Array($0.branches.values) + [$0.cameraJPEG].compactMap { $0 } }
        for branch in branches { branch.holdFrames(on) }
    }

    /// The branch holding the newest decoded frame (the tee's), if one is made: a camera's own JPEGs are no picture
    /// to draw on.
    private var decodedFrameHolder: PhotoBranch? {
        state.withLock { state in state.branches[.jpeg] ?? state.branches.values.first }
    }

    /// Whether the newest frame at the tee is held now (`copyOfNewestFrame` has one to copy).
    var holdsNewestFrame: Bool { decodedFrameHolder?.holdsNewestFrame ?? false }

    /// A copy of the newest frame at the tee, as held for a zero-lag photo (see `PhotoBranch`).
    func copyOfNewestFrame() -> UnsafeMutablePointer<GstBuffer>? { decodedFrameHolder?.copyOfNewestFrame() }

    /// Ends every photo being taken with `error` (the session stopped or failed) and refuses new ones.
    func abort(_ error: CameraError) {
        let branches = state.withLock { state in
            state.failure = state.failure ?? error
            return Array(state.branches.values) + [state.cameraJPEG].compactMap { $0 }
        }
        for branch in branches { branch.abort(error) }
    }
}
