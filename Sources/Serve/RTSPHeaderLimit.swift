import CGStreamer
import CRTSPServer

/// Oversized RTSP request headers are refused with 400 Bad Request, whatever the method. gst-rtsp-server has no
/// limit of its own: its connection (gstrtspconnection.c) reads a request's header to the end, keeping at most
/// 4095 bytes of each line (the rest of a longer line is read and dropped) and any number of lines. A line the
/// connection cut short is still 4 KB long, over the limit.
///
/// The check is an auth object's: gst-rtsp-server's client (handle_request in rtsp-client.c, 1.22) asks the
/// server's auth about every request (`gst_rtsp_auth_check(GST_RTSP_AUTH_CHECK_URL)`) once the header is read and
/// the session found, before any method's handler runs, and on a refusal sends nothing more ("error reply is
/// already sent"). The "pre-*-request" signals are no way to do it: refusing OPTIONS from pre-options-request
/// corrupted the heap (gst-rtsp-server 1.22: a free of a stack address when the client's thread ended, in about
/// one run of two).
enum RTSPHeaderLimit {
    /// The largest header (every "Name: value\r\n" line, as the message holds them) a request may have. Players
    /// send well under 1 KB (CSeq, User-Agent, Transport, Session, a digest Authorization of about 300 bytes).
    static let maxHeaderBytes = 4096

    static func isExceeded(_ request: UnsafeMutablePointer<GstRTSPMessage>) -> Bool {
        let text = g_string_new(nil)
        defer { _ = g_string_free(text, 1) }
        gst_rtsp_message_append_headers(request, text)
        return Int(text?.pointee.len ?? 0) > maxHeaderBytes
    }

    /// The server's auth object, installed whether or not viewers must authenticate: a GstRTSPAuth subclass whose
    /// check refuses a request over the limit. With `checksCredentials` (digest credentials or a TLS certificate
    /// are set on it), every other check is GstRTSPAuth's own; without, every other check answers as
    /// gst-rtsp-server does when a server has no auth at all.
    static func makeAuth(checksCredentials: Bool) -> UnsafeMutablePointer<GstRTSPAuth> {
        let object = g_object_new_with_properties(authType, 0, nil, nil)!
        if checksCredentials { g_object_set_data(object, checksCredentialsKey, object) }
        return UnsafeMutableRawPointer(object).assumingMemoryBound(to: GstRTSPAuth.self)
    }

    /// Marks an auth whose other checks are GstRTSPAuth's (any non-null value; the object's own address).
    private static let checksCredentialsKey = "gstcam-checks-credentials"

    /// Registered once, on first use (a `static let` is initialized once, thread-safely).
    private static let authType = registerGObjectSubclass(of: gst_rtsp_auth_get_type(), named: "GstCamHeaderLimitAuth") { authClass, _ in
        authClass?.assumingMemoryBound(to: GstRTSPAuthClass.self).pointee.check = { auth, context, check in
            guard let auth, let context, let check else { return 0 }
            return RTSPHeaderLimit.check(auth, context, String(cString: check)) ? 1 : 0
        }
    }

    private static func check(_ auth: UnsafeMutablePointer<GstRTSPAuth>, _ context: UnsafeMutablePointer<GstRTSPContext>,
                              _ check: String) -> Bool {
        if check == GST_RTSP_AUTH_CHECK_URL, let request = context.pointee.request, isExceeded(request) {
            refuse(context)
            return false
        }
        let object = UnsafeMutableRawPointer(auth).assumingMemoryBound(to: GObject.self)
        if g_object_get_data(object, checksCredentialsKey) != nil {
            let parentClass = g_type_class_peek(gst_rtsp_auth_get_type())?.assumingMemoryBound(to: GstRTSPAuthClass.self)
            guard let parentCheck = parentClass?.pointee.check else { return false }
            return parentCheck(auth, context, check) != 0
        }
        // rtsp-auth.c's no_auth_check: everything is allowed but a client's own transport settings (a multicast
        // destination of its choice).
        return check != GST_RTSP_AUTH_CHECK_TRANSPORT_CLIENT_SETTINGS
    }

    /// Answers the request 400 Bad Request (with its CSeq), as GstRTSPAuth answers a refusal of its own.
    private static func refuse(_ context: UnsafeMutablePointer<GstRTSPContext>) {
        guard let response = context.pointee.response, let client = context.pointee.client else { return }
        gst_rtsp_message_init_response(response, GST_RTSP_STS_BAD_REQUEST, gst_rtsp_status_as_text(GST_RTSP_STS_BAD_REQUEST),
                                       context.pointee.request)
        gst_rtsp_client_send_message(client, context.pointee.session, response)
    }
}
