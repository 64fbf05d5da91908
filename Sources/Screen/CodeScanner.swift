import CGStreamer
import CZbar
import Controls
import LinuxSystem
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
        /// Where the code is in the frame (its corners, 0…1 of the frame's width and height), found with libzbar
        /// on the frame the zbar element read; empty when it was not found. Not part of the code's identity.
        public var outline: [NormalizedPoint] = []

        public init(type: String, text: String, outline: [NormalizedPoint] = []) {
            self.type = type
            self.text = text
            self.outline = outline
        }

        public static func == (first: Code, second: Code) -> Bool { first.type == second.type && first.text == second.text }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(type)
            hasher.combine(text)
        }
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
                                                                    purpose: "the appsink that hands frames to the decoder",
                                                                    inputCaps: session.branchInputCaps)
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
        BlockingThread.start(named: "gstcam-scan-bus") { scanner.readBus() }
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
            var code = Code(type: type, text: String(cString: symbol))
            let observers: [AsyncStream<Code>.Continuation] = state.withLock { state in
                guard state.seen.insert(code).inserted else { return [] }
                return state.observers
            }
            guard !observers.isEmpty else { continue }
            code.outline = Self.outline(of: code.text, in: structure)
            for observer in observers { observer.yield(code) }
        }
    }

    /// The corners of the code reading `text` in the frame attached to the zbar element's message (scan.decoder
    /// sets attach-frame; the frame is I420, its first plane grey), normalised; empty when it is not found.
    private static func outline(of text: String, in structure: UnsafePointer<GstStructure>) -> [NormalizedPoint] {
        guard let value = gst_structure_get_value(structure, "frame"), let boxed = g_value_get_boxed(value) else { return [] }
        let sample = OpaquePointer(boxed)
        guard let buffer = gst_sample_get_buffer(sample), let caps = gst_sample_get_caps(sample),
              let format = gst_caps_get_structure(caps, 0) else { return [] }
        var width: gint = 0, height: gint = 0
        guard gst_structure_get_int(format, "width", &width) != 0, gst_structure_get_int(format, "height", &height) != 0,
              width > 0, height > 0 else { return [] }
        // GStreamer's default I420 layout: the grey plane first, rows rounded up to 4 bytes.
        let stride = (Int(width) + 3) & ~3
        var map = GstMapInfo()
        guard gstcam_buffer_map_read(buffer, &map) != 0 else { return [] }
        defer { gst_buffer_unmap(buffer, &map) }
        guard let data = map.data, Int(map.size) >= stride * Int(height) else { return [] }
        var points = [Int32](repeating: 0, count: 16)
        // -1: libzbar could not be loaded (the zbar element that read the code would have failed first).
        let count = max(0, gstcam_zbar_outline(data, UInt32(width), UInt32(height), UInt32(stride), text, &points, 8))
        return (0..<Int(count)).map { index in
            NormalizedPoint(x: Double(points[2 * index]) / Double(width), y: Double(points[2 * index + 1]) / Double(height))
        }
    }
}
