import CGStreamer
import CameraErrors
import GStreamer
import PipelineFiles
import Session
import CSoup
import Synchronization

/// The Motion-JPEG live view (`/stream.mjpg`): one `multipart/x-mixed-replace` response per viewer, each part a
/// JPEG from the shared MJPEG branch. A viewer still receiving the previous frame skips the new one (the
/// newest frame wins), so a slow viewer never holds back the others or the camera. The branch encodes only
/// while a viewer is connected.
final class MJPEGStreams: Sendable {
    static let boundary = "gstcam-frame"

    private struct Viewer {
        let request: WebRequest
        /// A frame has been handed to libsoup and not yet written.
        var sending = false
    }

    private struct State {
        var viewers: [UInt: Viewer] = [:]
        var subscription: Int?
    }

    private let loop: GLibLoop
    private let branch: BranchFeed
    private let state = Mutex(State())

    init(loop: GLibLoop, branch: BranchFeed) {
        self.loop = loop
        self.branch = branch
    }

    var count: Int { state.withLock { $0.viewers.count } }

    /// Starts a viewer's stream (on the loop's thread).
    func add(_ request: WebRequest) {
        soup_server_message_set_status(request.message, 200, nil)
        let headers = soup_server_message_get_response_headers(request.message)
        soup_message_headers_set_encoding(headers, SOUP_ENCODING_CHUNKED)
        request.setHeader("Content-Type", "multipart/x-mixed-replace; boundary=\(Self.boundary)")
        request.setHeader("Cache-Control", "no-store")
        // Written chunks are freed at once instead of kept for the whole (endless) response.
        soup_message_body_set_accumulate(soup_server_message_get_response_body(request.message), 0)
        let key = UInt(bitPattern: request.message)
        let context = Unmanaged.passRetained(MJPEGViewerContext(streams: self, key: key))
        gstcam_soup_message_on_wrote_chunk(request.message, { _, data in
            guard let data else { return }
            let context = Unmanaged<MJPEGViewerContext>.fromOpaque(data).takeUnretainedValue()
            context.streams.wroteChunk(context.key)
        }, context.retain().toOpaque(), { data, _ in
            if let data { Unmanaged<MJPEGViewerContext>.fromOpaque(data).release() }
        })
        gstcam_soup_message_on_finished(request.message, { _, data in
            guard let data else { return }
            let context = Unmanaged<MJPEGViewerContext>.fromOpaque(data).takeUnretainedValue()
            context.streams.remove(context.key)
        }, context.toOpaque(), { data, _ in
            if let data { Unmanaged<MJPEGViewerContext>.fromOpaque(data).release() }
        })
        g_object_ref(UnsafeMutableRawPointer(request.message))
        let subscribe = state.withLock { state in
            state.viewers[key] = Viewer(request: request)
            return state.subscription == nil
        }
        if subscribe {
            let id = branch.subscribe { [weak self] sample in self?.frameEncoded(sample) }
            state.withLock { $0.subscription = id }
        }
    }

    /// Runs on the branch's streaming thread: one part (boundary, headers, JPEG) in one GBytes, shared by the
    /// viewers, and handed to them on the loop's thread.
    private func frameEncoded(_ sample: OpaquePointer) {
        guard let buffer = gst_sample_get_buffer(sample) else { return }
        var map = GstMapInfo()
        guard gstcam_buffer_map_read(buffer, &map) != 0 else { return }
        var part = Array("--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(map.size)\r\n\r\n".utf8)
        part.append(contentsOf: UnsafeBufferPointer(start: map.data, count: Int(map.size)))
        gst_buffer_unmap(buffer, &map)
        part.append(contentsOf: Array("\r\n".utf8))
        let bytes = SharedBytes(part)
        loop.async { [weak self] in self?.send(bytes) }
    }

    private func send(_ bytes: SharedBytes) {
        let ready: [WebRequest] = state.withLock { state in
            var ready: [WebRequest] = []
            for (key, viewer) in state.viewers where !viewer.sending {
                state.viewers[key]?.sending = true
                ready.append(viewer.request)
            }
            return ready
        }
        for request in ready {
            soup_message_body_append_bytes(soup_server_message_get_response_body(request.message), bytes.pointer)
            soup_server_message_unpause(request.message)
        }
    }

    private func wroteChunk(_ key: UInt) {
        state.withLock { $0.viewers[key]?.sending = false }
    }

    /// The viewer went away (or its response ended): the last one leaving stops the encoding.
    private func remove(_ key: UInt) {
        let (viewer, unsubscribe) = state.withLock { state -> (Viewer?, Int?) in
            let viewer = state.viewers.removeValue(forKey: key)
            guard state.viewers.isEmpty, let id = state.subscription else { return (viewer, nil) }
            state.subscription = nil
            return (viewer, id)
        }
        if let unsubscribe { branch.unsubscribe(unsubscribe) }
        if let viewer { g_object_unref(UnsafeMutableRawPointer(viewer.request.message)) }
    }

    /// Ends every stream (the server is stopping).
    func endAll() {
        let id = state.withLock { state in
            defer { state.subscription = nil }
            return state.subscription
        }
        if let id { branch.unsubscribe(id) }
    }
}

private final class MJPEGViewerContext: Sendable {
    let streams: MJPEGStreams
    let key: UInt
    init(streams: MJPEGStreams, key: UInt) {
        self.streams = streams
        self.key = key
    }
}

/// One immutable GBytes, released with the last Swift reference.
///
/// `@unchecked Sendable`: a GBytes is immutable and its reference count atomic, so it may be shared between
/// threads.
private final class SharedBytes: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ bytes: [UInt8]) {
        pointer = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
    }

    deinit { g_bytes_unref(pointer) }
}
