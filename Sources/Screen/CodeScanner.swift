import CGStreamer
import Foundation
import Synchronization
import CameraErrors
import GStreamer
import PipelineFiles
import Session

/// Reads QR codes and barcodes from a running session with GStreamer's `zbar`: a small grey branch at ≤ 5 fps
/// (pipelines/scan.branch) hangs off the session's tee; its frames are decoded on a pipeline of the scanner's own
/// (pipelines/scan.decoder), whose bus reports each code. `codes()` gives each new code once.
public final class CodeScanner: Sendable {
    /// One code read: zbar's type name ("QR-Code", "EAN-13", …) and its text.
    public struct Code: Sendable, Equatable, Hashable {
        public let type: String
        public let text: String
    }

    private let session: CameraSession
    private let branch: TeeBranch
    private let decoder: Element
    private let bus: Bus
    private struct State {
        var seen: Set<Code> = []
        var observers: [AsyncStream<Code>.Continuation] = []
        var stopped = false
        var failure: String?
    }
    private let state = Mutex(State())

    /// Starts scanning `session` (running). Throws when a pipeline file is missing or broken, or the branch cannot
    /// be linked.
    public static func start(on session: CameraSession) throws -> CodeScanner {
        let decoderFile = try PipelineFile.load("scan.decoder")
        let decoder = try PipelineParser.parsePipeline(try decoderFile.description(with: [:]), file: decoderFile.path)
        guard let source = decoder.child(named: "scan-source"), let bus = decoder.bus else {
            throw CameraError.missingPipelineElement(file: decoderFile.path, name: "scan-source", purpose: "the appsrc the scanned frames enter")
        }
        let branchFile = try PipelineFile.load("scan.branch")
        let (bin, sink, input) = try PipelineContract.appSinkBranch(branchFile, parameters: [:], sinkName: "scan-sink",
                                                                    purpose: "the appsink that hands frames to the decoder")
        AppSink.forwardSamples(of: sink, to: source)
        guard decoder.setState(GST_STATE_PLAYING) != .failure else {
            throw CameraError.stateChangeFailed(to: "PLAYING", detail: "the code decoder (\(decoderFile.path)) did not start")
        }
        let branch: TeeBranch
        do {
            branch = try session.attachBranch(bin, input: input, what: "the code scanner")
        } catch {
            _ = decoder.setState(GST_STATE_NULL)
            throw error
        }
        let scanner = CodeScanner(session: session, branch: branch, decoder: decoder, bus: bus)
        let thread = Thread { scanner.readBus() }
        thread.name = "gstcam-scan-bus"
        thread.start()
        return scanner
    }

    private init(session: CameraSession, branch: TeeBranch, decoder: Element, bus: Bus) {
        self.session = session
        self.branch = branch
        self.decoder = decoder
        self.bus = bus
    }

    /// Each code the first time it is read, in order; the stream ends when the scanner stops.
    public func codes() -> AsyncStream<Code> {
        let (stream, continuation) = AsyncStream.makeStream(of: Code.self)
        let stopped = state.withLock { state in
            if !state.stopped { state.observers.append(continuation) }
            return state.stopped
        }
        if stopped { continuation.finish() }
        return stream
    }

    /// Why scanning stopped by itself (the decoder failed), if it did.
    public var failure: String? { state.withLock { $0.failure } }

    /// Takes the branch off the camera and stops the decoder; `codes()` streams end.
    public func stop() {
        let observers: [AsyncStream<Code>.Continuation]? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.stopped = true
            defer { state.observers = [] }
            return state.observers
        }
        guard let observers else { return }
        session.detachBranch(branch)
        _ = decoder.setState(GST_STATE_NULL)
        for observer in observers { observer.finish() }
    }

    deinit { stop() }

    /// The decoder's bus on a thread of its own: "barcode" element messages become codes; it ends with `stop()`.
    private func readBus() {
        let mask = GstMessageType(rawValue: GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_ERROR.rawValue)
        while !state.withLock({ $0.stopped }) {
            guard let message = gst_bus_timed_pop_filtered(bus.pointer, 100_000_000, mask) else { continue }
            defer { gst_message_unref(message) }
            if gstcam_message_type(message) == GST_MESSAGE_ERROR {
                var error: UnsafeMutablePointer<GError>?
                gst_message_parse_error(message, &error, nil)
                let text = error.flatMap { $0.pointee.message }.map { String(cString: $0) } ?? "unknown error"
                if let error { g_error_free(error) }
                state.withLock { $0.failure = "the code decoder failed: \(text)" }
                stop()
                return
            }
            guard let structure = gst_message_get_structure(message),
                  String(cString: gst_structure_get_name(structure)) == "barcode",
                  let symbol = gst_structure_get_string(structure, "symbol") else { continue }
            let type = gst_structure_get_string(structure, "type").map { String(cString: $0) } ?? "code"
            let code = Code(type: type, text: String(cString: symbol))
            let observers: [AsyncStream<Code>.Continuation] = state.withLock { state in
                guard state.seen.insert(code).inserted else { return [] }
                return state.observers
            }
            for observer in observers { observer.yield(code) }
        }
    }
}
