// webrtcbin shims for GstCamera's WebRTC live view: its action signals are emitted with the variadic
// g_signal_emit_by_name, its notifications connected with the g_signal_connect macro, and a promise's reply read
// with the variadic gst_structure_get; each becomes a typed, prefixed inline function.
#ifndef GSTCAM_CWEBRTC_SHIM_H
#define GSTCAM_CWEBRTC_SHIM_H

#include <gst/gst.h>
#include <gst/sdp/sdp.h>
#define GST_USE_UNSTABLE_API
#include <gst/webrtc/webrtc.h>

// "on-negotiation-needed": the offer can be made.
typedef void (*gstcam_webrtc_element_callback)(GstElement *webrtc, gpointer data);
static inline gulong gstcam_webrtc_on_negotiation_needed(GstElement *webrtc, gstcam_webrtc_element_callback callback,
                                                         gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(webrtc, "on-negotiation-needed", G_CALLBACK(callback), data, destroy, 0);
}

// "on-ice-candidate": a local ICE candidate for the peer.
typedef void (*gstcam_webrtc_candidate_callback)(GstElement *webrtc, guint mline, gchar *candidate, gpointer data);
static inline gulong gstcam_webrtc_on_ice_candidate(GstElement *webrtc, gstcam_webrtc_candidate_callback callback,
                                                    gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(webrtc, "on-ice-candidate", G_CALLBACK(callback), data, destroy, 0);
}

// The action signals.
static inline void gstcam_webrtc_create_offer(GstElement *webrtc, GstPromise *promise) {
    g_signal_emit_by_name(webrtc, "create-offer", NULL, promise);
}
static inline void gstcam_webrtc_set_local_description(GstElement *webrtc, GstWebRTCSessionDescription *description) {
    g_signal_emit_by_name(webrtc, "set-local-description", description, NULL);
}
static inline void gstcam_webrtc_set_remote_description(GstElement *webrtc, GstWebRTCSessionDescription *description) {
    g_signal_emit_by_name(webrtc, "set-remote-description", description, NULL);
}
static inline void gstcam_webrtc_add_ice_candidate(GstElement *webrtc, guint mline, const char *candidate) {
    g_signal_emit_by_name(webrtc, "add-ice-candidate", mline, candidate);
}

// The offer in a create-offer promise's reply (NULL if it failed); the caller frees it.
static inline GstWebRTCSessionDescription *gstcam_webrtc_offer_from(GstPromise *promise) {
    const GstStructure *reply = gst_promise_get_reply(promise);
    GstWebRTCSessionDescription *offer = NULL;
    if (reply) gst_structure_get(reply, "offer", GST_TYPE_WEBRTC_SESSION_DESCRIPTION, &offer, NULL);
    return offer;
}

// The peer's answer from its SDP text (NULL if it does not parse); the caller frees it.
static inline GstWebRTCSessionDescription *gstcam_webrtc_answer_from_text(const char *text) {
    GstSDPMessage *sdp = NULL;
    if (gst_sdp_message_new_from_text(text, &sdp) != GST_SDP_OK) return NULL;
    return gst_webrtc_session_description_new(GST_WEBRTC_SDP_TYPE_ANSWER, sdp);
}

// A description's SDP as text (newly allocated).
static inline gchar *gstcam_webrtc_description_text(GstWebRTCSessionDescription *description) {
    return gst_sdp_message_as_text(description->sdp);
}

#endif
