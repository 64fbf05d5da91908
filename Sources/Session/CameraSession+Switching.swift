import CGStreamer
import CameraErrors
import Cameras
import Controls
import GStreamer

/// A camera switch in progress: which camera, its source element (by address, to match its bus messages),
/// and the first buffer it must deliver.
struct SourceSwitch: Sendable {
    let target: String
    let origin: UInt
    let started = OneShot<Void>()
}

/// What a completed camera switch did.
public struct CameraSwitch: Sendable, Equatable {
    public let from: String
    public let to: String
    /// From the request to the first preview frame from the new camera.
    public let duration: Duration
}

extension CameraSession {
    /// Switches to the next camera this user can open (in discovery order, wrapping around).
    @discardableResult
    public func switchCamera() async throws -> CameraSwitch {
        let current = shared.withLock { $0.pipeline?.device }
        let cameras = CameraDiscovery.cameras()
        let usable = cameras.filter(\.isAccessible)
        guard let current, usable.count > 1 else {
            throw CameraError.noOtherCamera(device: current,
                                            unusable: cameras.filter { !$0.isAccessible && $0.path != current }.map(\.summary))
        }
        let index = usable.firstIndex { $0.path == current }.map { ($0 + 1) % usable.count } ?? 0
        return try await switchCamera(to: usable[index].path)
    }

    /// Replaces the pipeline's `source` element with one for the camera `selector` names (a path, an index,
    /// a stable id or part of its name) while everything downstream keeps
    /// running: the old source's pad is blocked, the source goes to NULL (releasing its camera) and is
    /// removed; a new source made from the same pipeline file is added, linked and brought to the
    /// pipeline's state. Preview frames and photos keep their size. A photo being taken finishes first.
    ///
    /// If the new camera fails (missing, forbidden, busy, no usable format), the old camera is put back and
    /// the error is thrown: the session keeps running on the previous camera.
    @discardableResult
    public func switchCamera(to selector: String) async throws -> CameraSwitch {
        let requested = ContinuousClock.now
        await operations.begin()
        defer { operations.end() }
        let pipeline = try runningPipeline()
        guard pipelineUsesDevice, let current = pipeline.device else {
            throw CameraError.noDeviceControls(pipeline: pipelinePath)
        }
        let camera = try Self.usableCamera(selector)
        let device = camera.path
        if device == current { return CameraSwitch(from: current, to: device, duration: .zero) }
        // Only the source is replaced: a camera with no mode of the kind the rest of the pipeline takes (raw,
        // Motion-JPEG, Bayer) cannot follow; say so before the running camera is touched.
        if let caps = pipeline.pipeline.child(named: "source-caps")?.caps("caps") {
            let kind = SourceKind(caps: caps)
            guard camera.modes.contains(where: { $0.kind == kind }) else {
                throw CameraError.negotiationFailed(device: device,
                    detail: "it offers no \(kind.formatName) format, which this session's pipeline (\(pipelinePath)) takes")
            }
        }
        let replacement = try makeSource(for: device)
        // The camera being left must not keep its torch burning.
        if let controls = try? CameraControls(devicePath: current), controls.hasTorch {
            _ = try? controls.setTorch(on: false)
        }
        guard let old = pipeline.pipeline.child(named: "source"), let oldOutput = old.staticPad("src"),
              let downstream = oldOutput.peer else {
            throw CameraError.missingPipelineElement(file: pipelinePath, name: "source", purpose: "the camera source")
        }
        let sourceCaps = pipeline.pipeline.child(named: "source-caps")
        let previousCaps = sourceCaps?.caps("caps")
        let zoomCaps = pipeline.pipeline.child(named: "zoom-caps")
        let previousZoomCaps = zoomCaps?.caps("caps")
        // No frame of the camera being left may stay held by a photo branch: it would keep that device open.
        pipeline.shutter.holdFrames(false)
        defer { pipeline.shutter.holdFrames(true) }
        detach(old, output: oldOutput, downstream: downstream, from: pipeline.pipeline)
        do {
            if let sourceCaps, let previousCaps {
                // Cameras differ in sizes: ask this one for its closest mode; the zoom stage scales it to the
                // session's size, so frames and photos keep their size across the switch.
                // Only modes of the kind the pipeline takes (raw, Motion-JPEG, Bayer) fit what follows the source.
                let kind = SourceKind(caps: previousCaps)
                let wanted = ModeRequest(width: configuration.width, height: configuration.height,
                                         frameRate: configuration.framerate, purpose: .preview)
                if let mode = ModeChooser.choose(wanted, from: camera.modes.filter { $0.kind == kind }) {
                    sourceCaps.setCaps("caps", mode.caps)
                    // The zoom stage scales, it does not convert: what leaves it is in the new camera's format.
                    zoomCaps?.setCaps("caps", "video/x-raw,width=\(configuration.width),height=\(configuration.height)"
                                      + (mode.formatField.map { ",\($0)" } ?? ""))
                }
            }
            try await attach(replacement, to: downstream, in: pipeline.pipeline, device: device)
        } catch {
            if let sourceCaps, let previousCaps { sourceCaps.setCaps("caps", previousCaps) }
            if let zoomCaps, let previousZoomCaps { zoomCaps.setCaps("caps", previousZoomCaps) }
            // Put the previous camera back; if even that fails, the session has no camera and fails.
            detach(replacement, output: replacement.staticPad("src")!, downstream: downstream, from: pipeline.pipeline)
            do {
                try await attach(old, to: downstream, in: pipeline.pipeline, device: current)
            } catch {
                tearDown(ending: .failed(error as? CameraError ?? .deviceGone(path: current)))
            }
            throw error
        }
        let manufacturer = CameraManufacturer.of(device: device)
        shared.withLock { shared in
            shared.updateRunning { running in
                running.pipeline.device = device
                running.pipeline.cameraName = camera.name
                running.pipeline.manufacturer = manufacturer
            }
        }
        // Digital zoom is kept; the optical part follows the new camera's lens.
        let rezoomed = try applyZoom(zoom, to: shared.withLock { $0.pipeline } ?? pipeline)
        shared.withLock { $0.zoom = rezoomed }
        let framesBefore = frameCount
        for await number in frameNumbers() where number > framesBefore { break }
        return CameraSwitch(from: current, to: device, duration: ContinuousClock.now - requested)
    }

    /// The `source` element the pipeline file describes for `device`, with every property the file gives it.
    private func makeSource(for device: String) throws -> Element {
        let parsed = try parsePipeline(device: device)
        defer { parsed.setState(GST_STATE_NULL) }
        guard let source = parsed.child(named: "source") else {
            throw CameraError.missingPipelineElement(file: pipelinePath, name: "source", purpose: "the camera source")
        }
        _ = parsed.remove(source)
        return source
    }

    /// Stops the source (its camera is released), unlinks it and takes it out of the pipeline. No blocking probe
    /// first: a stalled camera never reaches one, and going to NULL stops the source's streaming thread anyway.
    private func detach(_ source: Element, output: Pad, downstream: Pad, from pipeline: Element) {
        source.setState(GST_STATE_NULL)
        output.unlink(from: downstream)
        _ = pipeline.remove(source)
    }

    /// Adds `source`, links it and starts it; returns once its first buffer has passed.
    private func attach(_ source: Element, to downstream: Pad, in pipeline: Element, device: String) async throws {
        let sourceSwitch = SourceSwitch(target: device, origin: UInt(bitPattern: source.pointer))
        shared.withLock { $0.updateRunning { $0.sourceSwitch = sourceSwitch } }
        defer { shared.withLock { $0.updateRunning { $0.sourceSwitch = nil } } }
        guard pipeline.add(source), let output = source.staticPad("src"), output.link(to: downstream) == .ok else {
            throw CameraError.negotiationFailed(device: device, detail: "the new source could not be linked")
        }
        output.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { _ in
            sourceSwitch.started.succeed(())
            return GST_PAD_PROBE_REMOVE
        }
        // A source that fails to start (busy, no usable format) posts its error and then ends its stream with
        // EOS, which would finish the rest of the pipeline for the camera put back after it. Its EOS stops here;
        // the guard goes only once the source has delivered (a failed source keeps it until it is removed).
        let eosGuard = output.addProbe(GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) { data in
            data.eventType == GST_EVENT_EOS ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK
        }
        guard source.syncStateWithParent() else {
            // The bus usually says why (busy, forbidden) just after; prefer that to a bare failure.
            do {
                try await sourceSwitch.started.value(timeout: .milliseconds(500), what: "")
            } catch let error as CameraError {
                if case .timeout = error {} else { throw error }
            }
            throw CameraError.stateChangeFailed(to: "PLAYING", detail: "\(device) could not be started")
        }
        try await sourceSwitch.started.value(timeout: configuration.startTimeout, what: "The first frame from \(device)")
        output.removeProbe(eosGuard)
        shared.withLock { $0.updateRunning { $0.pipeline.sourceOrigin = sourceSwitch.origin } }
    }
}
