import CGStreamer
import PipelineFiles

extension CameraSession {
    /// Adds an encoding branch (see `NetworkBranch`) at the tee of the running pipeline; the caller removes it
    /// when it stops serving. It stays through camera switches (only the source is replaced) and ends with the
    /// pipeline. Parameters every network branch file may use: `keyframe_interval` (frames, about a second),
    /// `kbps`/`bps` (the H.264 bitrate) and `quality` (JPEG).
    public func addNetworkBranch(_ file: PipelineFile, kbps: Int = 2000, jpegQuality: Int = 80) throws -> NetworkBranch {
        let framesPerSecond = max(1, Int(configuration.framerate.value.rounded()))
        let parameters = [
            "keyframe_interval": "\(framesPerSecond)",
            "kbps": "\(kbps)",
            "bps": "\(kbps * 1000)",
            "quality": "\(min(100, max(1, jpegQuality)))",
        ]
        return try NetworkBranch(session: self, file: file, parameters: parameters)
    }

    /// The frame current now as a JPEG, from the photo branch (zero shutter lag, nothing written to disk): what
    /// `/snapshot.jpg` serves.
    public func snapshotJPEG() async throws -> [UInt8] {
        let pipeline = try runningPipeline()
        let image = try await pipeline.shutter.branch(for: .jpeg, unchangedPixels: zoom.keepsCameraPixels)
            .takeImage(tags: pipeline.photoTags(zoom: zoom), timeout: configuration.photoTimeout, what: "A frame for the snapshot")
        return image.bytes
    }
}
