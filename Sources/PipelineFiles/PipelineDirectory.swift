import Foundation
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
    public static func find() throws -> String {
        let candidates = searchPath()
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate + "/default.pipeline") {
            return candidate
        }
        throw CameraError.pipelinesNotFound(searched: candidates)
    }

    static func searchPath() -> [String] {
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment[environmentVariable], !explicit.isEmpty {
            candidates.append(explicit)
        }
        if let executableFolder = try? RunningExecutable.folder() {
            var folder = URL(fileURLWithPath: executableFolder, isDirectory: true)
            for _ in 0..<5 {
                candidates.append(folder.appendingPathComponent("pipelines").path)
                candidates.append(folder.appendingPathComponent("share/gstcam/pipelines").path)
                folder.deleteLastPathComponent()
            }
        }
        // Sources/GstCamera/Pipelines/PipelineDirectory.swift → the checkout's pipelines/.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(checkout.appendingPathComponent("pipelines").path)
        candidates.append("/usr/local/share/gstcam/pipelines")
        candidates.append("/usr/share/gstcam/pipelines")
        var seen = Set<String>()
        return candidates.filter { seen.insert($0).inserted }
    }
}
