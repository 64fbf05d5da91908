import CGStreamer
import CameraErrors

extension CameraSession {
    /// The zoom in effect (or to be applied when the session starts).
    public var zoom: Zoom { shared.withLock { $0.zoom } }

    /// Zooms optically first, where the camera has `zoom_absolute`, then digitally beyond the optical maximum
    /// (hybrid): the digital part crops in the pipeline's `zoom` stage and scales back to the output size, so
    /// preview frames and photos keep their size and the pipeline never restarts. The factor is clamped to
    /// 1…the maximum (the optical maximum × `Zoom.maximumDigitalFactor`, less where the crop would get under
    /// 32 pixels) and the centre to the frame; the zoom actually applied is returned, with its optical part.
    /// Before `start()` it is remembered and applied when the camera is known.
    @discardableResult
    public func setZoom(_ requested: Zoom) throws -> Zoom {
        var wanted = requested
        wanted.factor = max(1, requested.factor.isFinite ? requested.factor : 1)
        wanted.centerX = min(1, max(0, requested.centerX.isFinite ? requested.centerX : 0.5))
        wanted.centerY = min(1, max(0, requested.centerY.isFinite ? requested.centerY : 0.5))
        guard let pipeline = shared.withLock({ $0.pipeline }) else {
            wanted.factor = min(wanted.factor, Zoom.maximumDigitalFactor)
            shared.withLock { $0.zoom = wanted }
            return wanted
        }
        let applied = try applyZoom(wanted, to: pipeline)
        shared.withLock { $0.zoom = applied }
        return applied
    }

    /// Splits `zoom` into an optical part (the camera's `zoom_absolute`, if any) and a digital part, sets both,
    /// and returns what was applied.
    @discardableResult
    func applyZoom(_ zoom: Zoom, to pipeline: Pipeline) throws -> Zoom {
        guard let element = pipeline.pipeline.child(named: "zoom") else {
            throw CameraError.missingPipelineElement(file: pipelinePath, name: "zoom", purpose: "the videocrop that does digital zoom")
        }
        let size = zoomInputSize(of: pipeline) ?? (configuration.width, configuration.height)
        // A camera probed without optical zoom has nothing to set for 1×: its controls need not be opened.
        let withoutOptics = zoom.factor <= 1 && probedCamera.map { $0.path == pipeline.device && !$0.features.zoom } == true
        let controls = withoutOptics ? nil : try pipeline.device.map { try self.controls(of: $0) }
        let optical = try controls?.opticalZoom()
        let digitalMaximum = DigitalZoomCrop.maximumFactor(width: size.0, height: size.1, limit: Zoom.maximumDigitalFactor)
        var applied = zoom
        applied.factor = min(zoom.factor, (optical?.maximumFactor ?? 1) * digitalMaximum)
        applied.opticalFactor = 1
        if let controls, let optical {
            applied.opticalFactor = try controls.setOpticalZoom(factor: min(applied.factor, optical.maximumFactor))
        }
        let digital = applied.factor / applied.opticalFactor
        let crop = digital <= 1.0001 ? .none
            : DigitalZoomCrop(width: size.0, height: size.1, factor: digital, center: (zoom.centerX, zoom.centerY))
        // All four sides change between two frames, from the streaming thread just before a frame enters the
        // crop: one renegotiation per zoom change, never a half-applied crop of the wrong shape (whose transient
        // aspect ratio can fail negotiation with a photo branch attached).
        let apply: @Sendable () -> Void = {
            element.set("left", Int32(crop.left))
            element.set("right", Int32(crop.right))
            element.set("top", Int32(crop.top))
            element.set("bottom", Int32(crop.bottom))
        }
        if let input = element.staticPad("sink") {
            input.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { _ in
                apply()
                return GST_PAD_PROBE_REMOVE
            }
        } else {
            apply()
        }
        return applied
    }

    /// The size of the frames entering the zoom stage, once negotiated.
    private func zoomInputSize(of pipeline: Pipeline) -> (Int, Int)? {
        pipeline.pipeline.child(named: "zoom")?.staticPad("sink")?.currentCaps?.videoInfo.map { ($0.width, $0.height) }
    }
}
