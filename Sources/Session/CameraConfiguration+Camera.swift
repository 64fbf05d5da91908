import Cameras
import PipelineFiles

extension CameraConfiguration {
    /// The camera this configuration would open, probed once so that a command can hand it to each step that
    /// needs it (`choosingMode(_:keepPipeline:camera:)`, the camera screen's socket path, the session) instead
    /// of each step opening and probing the camera again. Nil when the pipeline opens no camera or the selector
    /// names none: the step that needs a camera then looks for it and reports why.
    public func probedCamera() -> Camera? {
        guard let file = try? PipelineFile.load(pipeline), file.placeholders.contains("device") else { return nil }
        return try? CameraDiscovery.camera(matching: device)
    }
}
