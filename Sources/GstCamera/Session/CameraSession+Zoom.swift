import CGStreamer

extension CameraSession {
    /// The zoom in effect (or to be applied when the session starts).
    public var zoom: Zoom { shared.withLock { $0.zoom } }

    /// Zooms by cropping in the pipeline's `zoom` stage and scaling back to the output size, so preview frames
    /// and photos keep their size and the pipeline never restarts. The factor is clamped to 1…the maximum
    /// (`Zoom.maximumDigitalFactor`, or less where the crop would get under 32 pixels) and the centre to the
    /// frame; the zoom actually applied is returned. Before `start()` it is remembered and applied then.
    @discardableResult
    public func setZoom(_ requested: Zoom) throws -> Zoom {
        let pipeline = shared.withLock { $0.pipeline }
        let size = pipeline.flatMap { zoomInputSize(of: $0) } ?? (configuration.width, configuration.height)
        let maximum = DigitalZoomCrop.maximumFactor(width: size.0, height: size.1, limit: Zoom.maximumDigitalFactor)
        var applied = requested
        applied.factor = min(maximum, max(1, requested.factor.isFinite ? requested.factor : 1))
        applied.centerX = min(1, max(0, requested.centerX.isFinite ? requested.centerX : 0.5))
        applied.centerY = min(1, max(0, requested.centerY.isFinite ? requested.centerY : 0.5))
        shared.withLock { $0.zoom = applied }
        if let pipeline { try applyZoom(applied, to: pipeline) }
        return applied
    }

    /// Sets the crop of the `zoom` element for `zoom` on the frames it receives.
    func applyZoom(_ zoom: Zoom, to pipeline: Pipeline) throws {
        guard let element = pipeline.pipeline.child(named: "zoom") else {
            throw CameraError.missingPipelineElement(file: pipelinePath, name: "zoom", purpose: "the videocrop that does digital zoom")
        }
        let size = zoomInputSize(of: pipeline) ?? (configuration.width, configuration.height)
        let crop = zoom.factor <= 1 ? .none
            : DigitalZoomCrop(width: size.0, height: size.1, factor: zoom.factor, center: (zoom.centerX, zoom.centerY))
        // All four sides change between two frames, from the streaming thread just before a frame enters the
        // crop: one renegotiation per zoom change, never a half-applied crop of the wrong shape (whose transient
        // aspect ratio can fail negotiation with a photo branch attached).
        let apply: @Sendable () -> Void = {
            element.set("left", Int32(crop.left))
            element.set("right", Int32(crop.right))
            element.set("top", Int32(crop.top))
            element.set("bottom", Int32(crop.bottom))
        }
        guard let input = element.staticPad("sink") else { return apply() }
        input.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { _ in
            apply()
            return GST_PAD_PROBE_REMOVE
        }
    }

    /// The size of the frames entering the zoom stage, once negotiated.
    private func zoomInputSize(of pipeline: Pipeline) -> (Int, Int)? {
        pipeline.pipeline.child(named: "zoom")?.staticPad("sink")?.currentCaps?.videoInfo.map { ($0.width, $0.height) }
    }
}
