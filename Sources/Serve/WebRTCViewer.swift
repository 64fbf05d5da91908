import CGStreamer
import CSoup
import CWebRTC
import CameraErrors
import Foundation
import GStreamer
import PipelineFiles
import Synchronization

/// One browser's WebRTC live view: a small pipeline (pipelines/webrtc-h264.media) whose appsrc is fed from the
/// shared H.264 branch (no encode of its own) and whose webrtcbin sends to the browser. Signalling is JSON over
/// the page's WebSocket: the server offers, the browser answers, ICE candidates go both ways.
final class WebRTCViewer: Sendable {
    /// `@unchecked Sendable`: the WebSocket connection is used only on the loop's thread (`loop.async`); it holds
    /// one reference, let go in `close()`.
    private struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let loop: GLibLoop
    private let connection: Connection
    private let pipeline: Element
    private let webrtc: Element
    private let feed: BranchFeed
    private let subscription = Mutex<Int?>(nil)
    private let closed = Atomic<Bool>(false)
    private let onClose: @Sendable (WebRTCViewer) -> Void

    init(loop: GLibLoop, connection: OpaquePointer, feed: BranchFeed, media: PipelineFile,
         onClose: @escaping @Sendable (WebRTCViewer) -> Void) throws {
        self.loop = loop
        self.feed = feed
        self.onClose = onClose
        pipeline = try PipelineParser.parsePipeline(try media.description(with: [:]), file: media.path)
        guard let webrtc = pipeline.child(named: "webrtc"), let source = pipeline.child(named: "network-source") else {
            throw CameraError.missingPipelineElement(file: media.path, name: "webrtc",
                                                     purpose: "the webrtcbin, after an appsrc named network-source")
        }
        self.webrtc = webrtc
        g_object_ref(UnsafeMutableRawPointer(connection))
        self.connection = Connection(pointer: connection)
        RTSPMount.configure(appSource: source)
        let me = Unmanaged.passUnretained(self).toOpaque()
        // Unretained: the pipeline (and with it these signals) is brought to NULL in `close()`, before the viewer goes.
        gstcam_webrtc_on_negotiation_needed(webrtc.pointer, { _, data in
            guard let data else { return }
            Unmanaged<WebRTCViewer>.fromOpaque(data).takeUnretainedValue().makeOffer()
        }, me, nil)
        gstcam_webrtc_on_ice_candidate(webrtc.pointer, { _, mline, candidate, data in
            guard let data, let candidate else { return }
            Unmanaged<WebRTCViewer>.fromOpaque(data).takeUnretainedValue()
                .send(["type": "candidate", "candidate": String(cString: candidate), "sdpMLineIndex": Int(mline)])
        }, me, nil)
        // Retained by the connection's handlers until the connection is let go (in `close()`).
        gstcam_soup_websocket_on_message(connection, { _, type, message, data in
            guard let data, let message else { return }
            var size: gsize = 0
            guard let bytes = g_bytes_get_data(message, &size) else { return }
            let text = String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(size)), as: UTF8.self)
            Unmanaged<WebRTCViewer>.fromOpaque(data).takeUnretainedValue().received(text)
        }, Unmanaged.passRetained(self).toOpaque(), { data, _ in
            if let data { Unmanaged<WebRTCViewer>.fromOpaque(data).release() }
        })
        gstcam_soup_websocket_on_closed(connection, { _, data in
            guard let data else { return }
            Unmanaged<WebRTCViewer>.fromOpaque(data).takeUnretainedValue().close()
        }, Unmanaged.passRetained(self).toOpaque(), { data, _ in
            if let data { Unmanaged<WebRTCViewer>.fromOpaque(data).release() }
        })
        guard pipeline.setState(GST_STATE_PLAYING) != .failure else {
            close()
            throw CameraError.stateChangeFailed(to: "PLAYING", detail: "the WebRTC pipeline \(media.path) would not start")
        }
        let id = feed.subscribe { sample in RTSPMount.push(sample, into: source) }
        subscription.withLock { $0 = id }
    }

    private func makeOffer() {
        let promise = gst_promise_new_with_change_func({ promise, data in
            guard let promise, let data else { return }
            Unmanaged<WebRTCViewer>.fromOpaque(data).takeUnretainedValue().offerMade(promise)
        }, Unmanaged.passRetained(self).toOpaque(), { data in
            if let data { Unmanaged<WebRTCViewer>.fromOpaque(data).release() }
        })
        gstcam_webrtc_create_offer(webrtc.pointer, promise)
    }

    private func offerMade(_ promise: UnsafeMutablePointer<GstPromise>) {
        defer { gst_promise_unref(promise) }
        guard let offer = gstcam_webrtc_offer_from(promise) else { return }
        defer { gst_webrtc_session_description_free(offer) }
        gstcam_webrtc_set_local_description(webrtc.pointer, offer)
        guard let text = takeGString(gstcam_webrtc_description_text(offer)) else { return }
        send(["type": "offer", "sdp": text])
    }

    /// The browser's answer or ICE candidate; anything else is ignored.
    private func received(_ text: String) {
        guard let message = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else { return }
        switch message["type"] as? String {
        case "answer":
            guard let sdp = message["sdp"] as? String, let answer = gstcam_webrtc_answer_from_text(sdp) else { return }
            gstcam_webrtc_set_remote_description(webrtc.pointer, answer)
            gst_webrtc_session_description_free(answer)
        case "candidate":
            guard let candidate = message["candidate"] as? String, !candidate.isEmpty else { return }
            gstcam_webrtc_add_ice_candidate(webrtc.pointer, guint(message["sdpMLineIndex"] as? Int ?? 0), candidate)
        default:
            break
        }
    }

    private func send(_ message: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: message) else { return }
        let text = String(decoding: data, as: UTF8.self)
        let connection = connection
        loop.async { [self] in
            // libsoup may have begun closing by itself (the browser left, or sent a message over the limit).
            guard !closed.load(ordering: .relaxed),
                  soup_websocket_connection_get_state(connection.pointer) == SOUP_WEBSOCKET_STATE_OPEN else { return }
            soup_websocket_connection_send_text(connection.pointer, text)
        }
    }

    /// The browser left (or the server stops): the feed, the pipeline and the connection are let go.
    func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        if let id = subscription.withLock({ $0.take() }) { feed.unsubscribe(id) }
        pipeline.setState(GST_STATE_NULL)
        let connection = connection
        loop.async {
            if soup_websocket_connection_get_state(connection.pointer) == SOUP_WEBSOCKET_STATE_OPEN {
                soup_websocket_connection_close(connection.pointer, guint16(SOUP_WEBSOCKET_CLOSE_NORMAL.rawValue), nil)
            }
            g_object_unref(UnsafeMutableRawPointer(connection.pointer))
        }
        onClose(self)
    }
}
