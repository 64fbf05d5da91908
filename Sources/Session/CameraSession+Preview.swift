import CGStreamer
import CameraErrors
import GStreamer
import PipelineFiles

/// Where a session's preview frames (`frames()`) come from.
enum PreviewBranchState: Sendable {
    /// No preview appsink yet: nobody has read `frames()` while the session ran.
    case notAttached
    /// pipelines/preview.branch is being linked to the tee.
    case attaching
    /// pipelines/preview.branch hangs off the tee (for the pipeline's life: it is never taken off).
    case attached
    /// The pipeline file has a `preview` appsink of its own.
    case own
    /// pipelines/preview.branch could not be linked: `frames()` ends at once (the session goes on without frames).
    case failed
}

/// Preview frames: counted where they enter the tee, converted (to RGB in the shipped files) and copied out only
/// for someone reading `frames()` (issue 13). The shipped pipeline files have no preview appsink: the session links
/// pipelines/preview.branch to the tee when `frames()` is first read while it runs, so a window, `--sink none` or a
/// photo never sets up a converter nobody uses (~8 ms of a 1 s `--sink none` preview's CPU, most of it at
/// negotiation). A reader that comes later waits one link and one frame (a few ms) for its first frame.
extension CameraSession {
    /// A file's own `preview` appsink is set up with the pipeline; frames pass into its branch only while someone
    /// reads them.
    func attachOwnPreview(pipeline: Element, tee: Element, file: String) throws {
        guard let preview = pipeline.child(named: "preview") else { return }
        try PipelineContract.checkAppSink(preview, name: "preview", file: file)
        configurePreview(preview)
        gateConversion(into: preview, from: tee)
        shared.withLock { $0.previewBranch = .own }
    }

    /// Links pipelines/preview.branch to the running pipeline's tee when someone reads `frames()` and there is no
    /// preview appsink yet. Called when a reader comes and when the session starts running (a reader that came
    /// while it started). A branch that cannot be linked ends the readers' streams, now and later, and is reported
    /// as a warning.
    func attachPreviewBranchIfWanted() {
        guard let branchFile = previewBranchFile else { return }
        let (claimed, failed) = shared.withLock { shared -> (Bool, Bool) in
            if case .failed = shared.previewBranch { return (false, true) }
            guard case .running = shared.phase, case .notAttached = shared.previewBranch,
                  !shared.frameObservers.isEmpty else { return (false, false) }
            shared.previewBranch = .attaching
            return (true, false)
        }
        if failed { endFrameReaders() }
        guard claimed else { return }
        do {
            let branch = try PipelineContract.appSinkBranch(branchFile, parameters: [:], sinkName: "preview",
                                                            purpose: "the appsink that delivers preview frames",
                                                            inputCaps: branchInputCaps)
            configurePreview(branch.sink)
            gate(at: branch.input, preview: branch.sink)
            _ = try attachBranch(branch.bin, input: branch.input, what: "The preview branch (\(branchFile.path))")
        } catch {
            let failure = error as? CameraError
                ?? .badPipelineFile(file: branchFile.path, detail: "the preview branch could not be linked to the tee (\(error))")
            shared.withLock { $0.previewBranch = .failed }
            endFrameReaders()
            notify(.warning("No preview frames: \(failure)"))
            return
        }
        shared.withLock { shared in
            if case .attaching = shared.previewBranch { shared.previewBranch = .attached }
        }
    }

    /// Ends every `frames()` stream: the preview branch failed to link, so none of them would get a frame.
    private func endFrameReaders() {
        let readers = shared.withLock { shared in
            defer { shared.frameObservers = [:] }
            return Array(shared.frameObservers.values)
        }
        for reader in readers { reader.finish() }
    }

    /// Counts every frame as it enters the tee (first frame, stall watch, `frameCount`, `frameNumbers()`) — after the
    /// photo shutter's probe there has taken the frame as the current one (probes run in the order added), so a
    /// photo after frame N shows N.
    func countFramesAtTee(_ tee: Element) {
        tee.staticPad("sink")?.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { [weak self] data in
            self?.count(time: gstcam_probe_info_buffer(data.info)?.pointee.pts)
            return GST_PAD_PROBE_OK
        }
    }

    private func configurePreview(_ preview: Element) {
        // Latest-frame semantics regardless of what the file says: never queue stale frames.
        preview.set("drop", true)
        preview.set("max-buffers", UInt32(1))
        preview.set("sync", false)
        preview.set("emit-signals", false)
        // Frames are copied out at once; holding the last one would pin a camera buffer (and, on a switch, the
        // previous camera's queue).
        preview.set("enable-last-sample", false)
        AppSink.setSampleHandler(preview) { [weak self] sample in self?.deliver(sample) }
    }

    /// Runs on the appsink's streaming thread for every preview frame that was converted; the frame keeps the
    /// number it was counted with at the tee.
    private func deliver(_ sample: OpaquePointer) {
        let time = Self.duration(gst_sample_get_buffer(sample)?.pointee.pts)
        let (number, observers) = shared.withLock { shared in
            shared.convertedFrames += 1
            return (shared.recentFrameNumbers.number(at: time) ?? shared.frames.count, Array(shared.frameObservers.values))
        }
        guard !observers.isEmpty, let frame = Self.copyFrame(sample, number: number) else { return }
        for observer in observers { observer.yield(frame) }
    }

    private static func duration(_ time: GstClockTime?) -> Duration? {
        time.flatMap { $0 == gstcam_clock_time_none() ? nil : Duration.nanoseconds(Int64(clamping: $0)) }
    }

    /// Counts a frame entering the tee: `frameCount`, its number for `frameNumbers()` and `frames()`, the first
    /// frame, the stall watch. `time`: the frame's presentation timestamp (for `frameTally`).
    private func count(time: GstClockTime?) {
        let newest = Self.duration(time)
        let (number, numberObservers, firstFrame, resumed) = shared.withLock { shared in
            shared.frames.count += 1
            shared.frames.newest = newest
            if shared.frames.count == 1 { shared.frames.first = newest }
            shared.recentFrameNumbers.record(shared.frames.count, at: newest)
            var firstFrame: OneShot<Void>?
            var resumed: String?
            if case let .starting(waiting, _) = shared.phase { firstFrame = waiting }
            shared.updateRunning { running in
                running.lastFrame = .now
                if running.stalledSeconds != nil { resumed = running.pipeline.device ?? pipelineFile.path }
                running.stalledSeconds = nil
            }
            return (shared.frames.count, Array(shared.frameNumberObservers.values), firstFrame, resumed)
        }
        for observer in numberObservers { observer.yield(number) }
        firstFrame?.succeed(())
        if let resumed { notify(.framesResumed(device: resumed)) }
    }

    /// A file's own preview appsink converts only while someone reads `frames()`. A branch that cannot be traced
    /// back to the tee (not a chain of elements with `sink` pads) is left converting every frame.
    private func gateConversion(into preview: Element, from tee: Element) {
        var element = preview
        for _ in 0..<64 {
            guard let input = element.staticPad("sink"), let upstream = input.peer?.element else { return }
            if upstream.pointer == tee.pointer {
                gate(at: input, preview: preview)
                return
            }
            element = upstream
        }
    }

    /// Lets frames into the preview branch at `input`, where it leaves the tee, only while someone reads `frames()`.
    private func gate(at input: Pad, preview: Element) {
        input.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { [weak self] _ in
            self?.shared.withLock { $0.frameObservers.isEmpty } == false ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP
        }
        // No frame may be needed to preroll: the branch can go without frames for the session's life.
        preview.set("async", false)
    }

    private static func copyFrame(_ sample: OpaquePointer, number: Int) -> Frame? {
        guard let caps = gst_sample_get_caps(sample), let info = VideoInfo(caps: caps),
              let buffer = gst_sample_get_buffer(sample) else { return nil }
        var map = GstMapInfo()
        guard gstcam_buffer_map_read(buffer, &map) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        let bytes = Array(UnsafeBufferPointer(start: map.data, count: Int(map.size)))
        return Frame(width: info.width, height: info.height, format: info.format, bytesPerRow: info.bytesPerRow,
                     timestamp: duration(gstcam_buffer_pts(buffer)) ?? .zero, number: number, bytes: bytes)
    }
}
