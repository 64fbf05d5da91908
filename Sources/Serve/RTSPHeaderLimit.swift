import CGStreamer
import CRTSPServer

/// Oversized RTSP request headers are refused with 400 Bad Request before a viewer gets a stream. gst-rtsp-server
/// has no limit of its own: its connection (gstrtspconnection.c) reads a request's header to the end, keeping at
/// most 4095 bytes of each line (the rest of a longer line is read and dropped) and any number of lines. The
/// client's "pre-*-request" signals come once the header is read and may refuse the request with a status, so
/// the header's size is checked there. A line the connection cut short is still 4 KB long, over the limit.
///
/// Only DESCRIBE and SETUP are checked: no stream is served without them. Refusing OPTIONS from
/// pre-options-request crashed the server (gst-rtsp-server 1.22: a heap corruption, a free of a stack address
/// found when the client's thread ended, in about one run of two), so OPTIONS, PLAY and the others are
/// answered whatever their header's size.
enum RTSPHeaderLimit {
    /// The largest header (every "Name: value\r\n" line, as the message holds them) a request may have. Players
    /// send well under 1 KB (CSeq, User-Agent, Transport, Session, a digest Authorization of about 300 bytes).
    static let maxHeaderBytes = 4096

    /// The pre-request signal besides pre-describe-request (whose handler also checks the viewer limit).
    static let otherRequestSignals = ["pre-setup-request"]

    static func isExceeded(_ context: UnsafeMutablePointer<GstRTSPContext>?) -> Bool {
        guard let request = context?.pointee.request else { return false }
        let text = g_string_new(nil)
        defer { _ = g_string_free(text, 1) }
        gst_rtsp_message_append_headers(request, text)
        return Int(text?.pointee.len ?? 0) > maxHeaderBytes
    }
}
