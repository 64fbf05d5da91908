import CGStreamer
import CameraErrors
import GStreamer
import PipelineFiles
import Session
import Screen
import CSoup
import Foundation
import Synchronization

/// The web side of `gstcam serve`, on libsoup 3's HTTP server: the camera page, its JSON API, `/snapshot.jpg`
/// and the Motion-JPEG live view (docs/serve.md). Requests are handled on the loop's thread; work that waits
/// (a photo, a snapshot) pauses its message and answers from a task.
final class WebServer: Sendable {
    /// `@unchecked Sendable`: the server object is used only on the loop's thread (`loop.sync`), and GObject
    /// reference counting is atomic.
    private struct Handles: @unchecked Sendable {
        let server: UnsafeMutablePointer<SoupServer>
    }

    private let loop: GLibLoop
    private let handles: Handles
    private let handler: WebHandler
    private let stopped = Atomic<Bool>(false)
    let address: String
    let port: Int

    init(loop: GLibLoop, address: String, port: Int, credentials: ServeCredentials?, cameras: [WebCamera],
         tls: ServeConfiguration.TLSFiles? = nil, maxViewers: Int = 16) throws {
        self.loop = loop
        self.address = address
        let handler = WebHandler(loop: loop, credentials: credentials, cameras: cameras, maxViewers: maxViewers)
        self.handler = handler
        let made: (Handles, Int) = try loop.sync {
            let server = gstcam_soup_server_new()!
            guard let socketAddress = gstcam_soup_socket_address(address, guint16(port)) else {
                g_object_unref(server)
                throw CameraError.serveFailed(what: "The web server", address: address, port: port,
                                              detail: "\(address) is not an IP address")
            }
            defer { g_object_unref(socketAddress) }
            var error: UnsafeMutablePointer<GError>?
            var options = SoupServerListenOptions(rawValue: 0)
            if let tls {
                guard let certificate = g_tls_certificate_new_from_files(tls.certificate, tls.key, &error) else {
                    let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
                    if let error { g_error_free(error) }
                    g_object_unref(server)
                    throw CameraError.serveFailed(what: "The web server", address: address, port: port,
                                                  detail: "the TLS certificate \(tls.certificate) or its key \(tls.key) cannot be used: \(message)")
                }
                gstcam_soup_server_set_tls_certificate(server, certificate)
                g_object_unref(certificate)
                options = SOUP_SERVER_LISTEN_HTTPS
            }
            guard soup_server_listen(server, socketAddress, options, &error) != 0 else {
                let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
                if let error { g_error_free(error) }
                g_object_unref(server)
                throw CameraError.serveFailed(what: "The web server", address: address, port: port, detail: message)
            }
            soup_server_add_handler(server, nil, { server, message, path, query, data in
                guard let message, let path, let data else { return }
                Unmanaged<WebHandler>.fromOpaque(data).takeUnretainedValue()
                    .handle(WebRequest(message: message, path: String(cString: path), form: query))
            }, Unmanaged.passRetained(handler).toOpaque(), { data in
                if let data { Unmanaged<WebHandler>.fromOpaque(data).release() }
            })
            // The API takes no request bodies: a large one is refused (413) once its headers are read, before
            // libsoup would read it into memory. A header over 16 KiB is refused too (431).
            soup_server_add_early_handler(server, nil, { _, message, _, _, _ in
                guard let message else { return }
                if !WebRequest.refuseLargeHeader(message) { WebRequest.refuseLargeBody(message) }
            }, nil, nil)
            // The WebRTC view's signalling (libsoup answers the WebSocket handshake).
            soup_server_add_websocket_handler(server, "/webrtc", nil, nil, { _, message, _, connection, data in
                guard let message, let connection, let data else { return }
                Unmanaged<WebHandler>.fromOpaque(data).takeUnretainedValue()
                    .webSocket(connection, request: WebRequest(message: message, path: "/webrtc", query: soup_server_message_get_uri(message)))
            }, Unmanaged.passRetained(handler).toOpaque(), { data in
                if let data { Unmanaged<WebHandler>.fromOpaque(data).release() }
            })
            var bound = port
            if let listeners = soup_server_get_listeners(server) {
                if let socket = listeners.pointee.data {
                    bound = Int(gstcam_soup_socket_port(socket.assumingMemoryBound(to: GSocket.self)))
                }
                g_slist_free(listeners)
            }
            return (Handles(server: server), bound)
        }
        handles = made.0
        self.port = made.1
    }

    /// Stops listening and ends every open stream. Safe to call twice.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        handler.endStreams()
        let handles = handles
        try? loop.sync {
            soup_server_disconnect(handles.server)
            g_object_unref(handles.server)
        }
    }

    deinit { stop() }
}

/// One request as libsoup hands it over: used on the loop's thread only.
struct WebRequest: @unchecked Sendable {
    /// `@unchecked Sendable`: the message is touched only on the loop's thread; a request answered later holds
    /// a reference (`retain`) until then.
    let message: OpaquePointer
    let path: String
    let query: [String: String]

    /// A WebSocket request's query comes from its URI.
    init(message: OpaquePointer, path: String, query uri: OpaquePointer?) {
        let form = uri.flatMap { g_uri_get_query($0) }.flatMap { soup_form_decode($0) }
        defer { if let form { g_hash_table_unref(form) } }
        self.init(message: message, path: path, form: form)
    }

    init(message: OpaquePointer, path: String, form query: OpaquePointer?) {
        self.message = message
        self.path = path
        var values: [String: String] = [:]
        if let query {
            var iterator = GHashTableIter()
            g_hash_table_iter_init(&iterator, query)
            var key: gpointer?, value: gpointer?
            while g_hash_table_iter_next(&iterator, &key, &value) != 0 {
                if let key, let value {
                    values[String(cString: key.assumingMemoryBound(to: CChar.self))] = String(cString: value.assumingMemoryBound(to: CChar.self))
                }
            }
        }
        self.query = values
    }

    /// Whether the query has `name`, with or without a value (`?download` as well as `?download=1`; libsoup's
    /// form decoding leaves out a bare name).
    func hasParameter(_ name: String) -> Bool {
        if query[name] != nil { return true }
        guard let uri = soup_server_message_get_uri(message), let raw = g_uri_get_query(uri) else { return false }
        return String(cString: raw).split(separator: "&").contains { $0 == name }
    }

    /// The largest request header taken: every "Name: value" line. Browsers send 1–4 KB (cookies of other pages
    /// on the same host included); libsoup itself reads no more than 100 KiB of header, then closes the
    /// connection without an answer (soup_message_io_data_read_headers: "Header too big", before any handler).
    static let maximumHeaderBytes = 16 * 1024

    /// 431 Request Header Fields Too Large for a header over `maximumHeaderBytes` (and under libsoup's own
    /// 100 KiB), answered at once and the connection closed.
    static func refuseLargeHeader(_ message: OpaquePointer) -> Bool {
        var iterator = SoupMessageHeadersIter()
        soup_message_headers_iter_init(&iterator, soup_server_message_get_request_headers(message))
        var bytes = 0
        var name: UnsafePointer<CChar>?, value: UnsafePointer<CChar>?
        while soup_message_headers_iter_next(&iterator, &name, &value) != 0 {
            bytes += strlen(name!) + strlen(value!) + 4
        }
        guard bytes > maximumHeaderBytes else { return false }
        let body = WebHandler.errorJSON("request headers over \(maximumHeaderBytes / 1024) KiB are refused")
        gstcam_soup_refuse_and_close(message, "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n"
                                              + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        return true
    }

    /// The largest request body taken (the API has none; a form or a stray upload is small).
    static let maximumBodyBytes: Int64 = 64 * 1024

    /// 413 Payload Too Large for a body over `maximumBodyBytes` or of unknown length (chunked), answered at
    /// once and the connection closed, the body unread (libsoup would read it all into memory first).
    static func refuseLargeBody(_ message: OpaquePointer) {
        let headers = soup_server_message_get_request_headers(message)
        let encoding = soup_message_headers_get_encoding(headers)
        let tooLarge = encoding == SOUP_ENCODING_CHUNKED
            || (encoding == SOUP_ENCODING_CONTENT_LENGTH && soup_message_headers_get_content_length(headers) > maximumBodyBytes)
        guard tooLarge else { return }
        let body = WebHandler.errorJSON("request bodies over \(maximumBodyBytes / 1024) KiB are refused (this API takes none)")
        gstcam_soup_refuse_and_close(message, "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\nContent-Type: application/json\r\n"
                                              + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    }

    var method: String { soup_server_message_get_method(message).map { String(cString: $0) } ?? "" }

    func header(_ name: String) -> String? {
        soup_message_headers_get_one(soup_server_message_get_request_headers(message), name).map { String(cString: $0) }
    }

    func setHeader(_ name: String, _ value: String) {
        soup_message_headers_replace(soup_server_message_get_response_headers(message), name, value)
    }

    func respond(_ status: Int, type: String, body: [UInt8]) {
        soup_server_message_set_status(message, guint(status), nil)
        setHeader("Cache-Control", "no-store")
        body.withUnsafeBufferPointer { bytes in
            soup_server_message_set_response(message, type, SOUP_MEMORY_COPY, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, gsize(bytes.count))
        }
    }

    /// Answers with `bytes` (a GBytes; libsoup takes a reference instead of copying, and this one is let go).
    func respond(_ status: Int, type: String, bytes: OpaquePointer?) {
        soup_server_message_set_status(message, guint(status), nil)
        setHeader("Cache-Control", "no-store")
        setHeader("Content-Type", type)
        if let bytes {
            soup_message_body_append_bytes(soup_server_message_get_response_body(message), bytes)
            g_bytes_unref(bytes)
        }
    }

    func respond(_ status: Int, json: String) {
        respond(status, type: "application/json", body: Array(json.utf8))
    }

    /// Holds the message for an answer given later, from another task (`finishLater`).
    func pause() {
        g_object_ref(UnsafeMutableRawPointer(message))
        soup_server_message_pause(message)
    }

    /// Sends an answer to a paused message (on the loop's thread) and lets it go.
    func resume() {
        soup_server_message_unpause(message)
        g_object_unref(UnsafeMutableRawPointer(message))
    }
}
