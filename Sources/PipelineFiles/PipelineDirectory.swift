import Glibc
import Synchronization
import CameraErrors
import LinuxSystem

/// Finds the pipelines/ folder that holds the pipeline description files, so that the descriptions live
/// in one place (the files) and never as copies inside the Swift code.
public enum PipelineDirectory {
    /// The environment variable that names the folder explicitly.
    public static let environmentVariable = "GSTCAM_PIPELINES_DIR"

    /// The first of: $GSTCAM_PIPELINES_DIR; a pipelines/ or share/gstcam/pipelines/ folder next to the running
    /// executable or above it (a build tree or an install prefix); the source checkout this library was built
    /// from; /usr/local/share/gstcam/pipelines; /usr/share/gstcam/pipelines.
    ///
    /// The folder found is kept for the process (every pipeline file is looked up here, and building the search
    /// path each time cost a cold preview 2 ms of CPU), as long as $GSTCAM_PIPELINES_DIR says the same.
    public static func find() throws -> String {
        let explicit = getenv(environmentVariable).map { String(cString: $0) }
        if let found = found.withLock({ $0 }), found.explicit == explicit { return found.folder }
        let candidates = searchPath(explicit: explicit)
        for candidate in candidates where (try? SystemCalls.status(candidate + "/default.pipeline")) != nil {
            found.withLock { $0 = (explicit, candidate) }
            return candidate
        }
        throw CameraError.pipelinesNotFound(searched: candidates)
    }

    /// The folder `find()` found last, and the value of $GSTCAM_PIPELINES_DIR it was found with.
    private static let found = Mutex<(explicit: String?, folder: String)?>(nil)

    /// The pipelines/ folder of the checkout this library was built from (this file is
    /// Sources/PipelineFiles/PipelineDirectory.swift in it).
    static let checkoutPipelines = FilePath.join(
        FilePath.directory(of: FilePath.directory(of: FilePath.directory(of: #filePath))), "pipelines")

    static func searchPath(explicit: String?) -> [String] {
        var candidates: [String] = []
        if let explicit, !explicit.isEmpty {
            candidates.append(explicit)
        }
        if let executableFolder = try? RunningExecutable.folder() {
            var folder = executableFolder
            for _ in 0..<5 {
                candidates.append(FilePath.join(folder, "pipelines"))
                candidates.append(FilePath.join(folder, "share/gstcam/pipelines"))
                folder = FilePath.directory(of: folder)
            }
        }
        candidates.append(checkoutPipelines)
        candidates.append("/usr/local/share/gstcam/pipelines")
        candidates.append("/usr/share/gstcam/pipelines")
        var seen = Set<String>()
        return candidates.filter { seen.insert($0).inserted }
    }
}
