import CGStreamer
import Synchronization

/// One photo from a running pipeline: a branch from the photo branch file is added at the tee, lets exactly
/// one frame through, is closed with EOS once the encoder has produced the JPEG, and is removed once the
/// file sink has handled that EOS (its forwarded EOS message: only then has filesink written its data).
/// The preview keeps flowing throughout because the tee's other branches are never blocked.
final class PhotoCapture: Sendable {
    /// Closed until the branch runs; then open for the first frame whose timestamp is at least `notBefore`
    /// (a flash photo must not take a frame exposed before the strobe); then passed.
    private enum Gate: Equatable { case closed, open(notBefore: UInt64), passed }

    /// The name the photo branch file gives its file sink (pipelines/README.md).
    static let sinkName = "photo-sink"

    private let encoded = OneShot<Void>()
    private let written = OneShot<Void>()
    private let gate = Mutex(Gate.closed)

    /// The branch's file sink posted EOS: the photo is written.
    func fileWritten() { written.succeed(()) }

    /// Ends the waits early, e.g. when the pipeline fails or the session stops mid-capture.
    func abort(_ error: CameraError) {
        encoded.fail(error)
        written.fail(error)
    }

    /// Writes one frame to `output.temporaryPath`; returns the frame's size.
    /// `beforeFrame` runs just before the branch accepts a frame (e.g. to fire the flash).
    func take(pipeline: Element, tee: Element, branch: PipelineFile, parameters: [String: String], tags: PhotoTags,
              output: AtomicPhotoWriter, frameTimeout: Duration,
              beforeFrame: (() throws -> Void)? = nil) async throws -> (width: Int, height: Int) {
        let bin = try PipelineParser.parseBin(try branch.description(with: parameters), file: branch.path)
        if let tagger = bin.child(named: "tagger") { tags.apply(to: tagger) }
        guard let sink = bin.child(named: Self.sinkName) else {
            throw CameraError.missingPipelineElement(file: branch.path, name: Self.sinkName, purpose: "the file sink that writes the photo")
        }
        guard let encoderPad = bin.child(named: "encoder")?.staticPad("src") else {
            throw CameraError.missingPipelineElement(file: branch.path, name: "encoder", purpose: "the image encoder")
        }
        guard let branchInput = bin.staticPad("sink") else {
            throw CameraError.badPipelineFile(file: branch.path, detail: "the branch must start with an unlinked sink pad and end in \(Self.sinkName)")
        }
        sink.set("location", output.temporaryPath)
        encoderPad.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { [encoded] _ in
            encoded.succeed(())
            return GST_PAD_PROBE_OK
        }
        bin.set("message-forward", true)
        guard let teePad = tee.requestPad("src_%u") else {
            throw CameraError.badPipelineFile(file: branch.path, detail: "the tee \"split\" gave no new branch pad")
        }
        teePad.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { [self] data in
            let timestamp = data.buffer.map { gstcam_buffer_pts($0) } ?? gstcam_clock_time_none()
            return self.gate.withLock { gate in
                guard case .open(let notBefore) = gate,
                      timestamp == gstcam_clock_time_none() || UInt64(timestamp) >= notBefore else { return GST_PAD_PROBE_DROP }
                gate = .passed
                return GST_PAD_PROBE_OK
            }
        }
        guard pipeline.add(bin) else {
            tee.releaseRequestPad(teePad)
            throw CameraError.stateChangeFailed(to: "PLAYING", detail: "the photo branch could not join the pipeline")
        }
        defer {
            // Buffers are dropped at the tee pad from here on, so unlinking cannot race with a push.
            gate.withLock { $0 = .passed }
            teePad.unlink(from: branchInput)
            tee.releaseRequestPad(teePad)
            bin.setState(GST_STATE_NULL)
            _ = pipeline.remove(bin)
        }
        // Running before linked: linking sends RECONFIGURE upstream, and the source's renegotiation must find
        // the branch's pads active (an inactive branch answers caps queries with nothing: not-negotiated).
        guard bin.syncStateWithParent() else {
            throw CameraError.stateChangeFailed(to: "PLAYING", detail: "the photo branch did not start")
        }
        guard teePad.link(to: branchInput) == .ok else {
            throw CameraError.negotiationFailed(device: nil, detail: "the photo branch could not be linked to the tee")
        }
        var notBefore: UInt64 = 0
        if let beforeFrame {
            try beforeFrame()
            notBefore = UInt64(gst_element_get_current_running_time(pipeline.pointer))
        }
        gate.withLock { $0 = .open(notBefore: notBefore) }
        try await encoded.value(timeout: frameTimeout, what: "A frame for the photo")
        let size = teePad.currentCaps?.videoInfo.map { (width: $0.width, height: $0.height) } ?? (0, 0)
        // EOS after the one frame; the session calls fileWritten() when the sink's EOS message arrives.
        _ = branchInput.sendEvent(gst_event_new_eos())
        try await written.value(timeout: .seconds(10), what: "Writing the photo")
        return size
    }
}
