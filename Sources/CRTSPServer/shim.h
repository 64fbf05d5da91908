// gst-rtsp-server shims for GstCamera's RTSP serving: signal connections (g_signal_connect is a macro taking
// an untyped callback), casts and variadic calls Swift cannot import, as prefixed inline functions.
#ifndef GSTCAM_CRTSPSERVER_SHIM_H
#define GSTCAM_CRTSPSERVER_SHIM_H

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/base/gstbasesink.h>
#include <gst/video/video.h>
#include <gst/rtsp-server/rtsp-server.h>

// The factory's "media-configure" signal (a shared media: once per media, before it is prepared).
typedef void (*gstcam_rtsp_media_configure_callback)(GstRTSPMediaFactory *factory, GstRTSPMedia *media, gpointer data);
static inline gulong gstcam_rtsp_factory_on_media_configure(GstRTSPMediaFactory *factory, gstcam_rtsp_media_configure_callback callback,
                                                            gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(factory, "media-configure", G_CALLBACK(callback), data, destroy, 0);
}

// The media's "unprepared" signal: its pipeline has stopped (its last client left, or the server is closing).
typedef void (*gstcam_rtsp_media_unprepared_callback)(GstRTSPMedia *media, gpointer data);
static inline gulong gstcam_rtsp_media_on_unprepared(GstRTSPMedia *media, gstcam_rtsp_media_unprepared_callback callback,
                                                     gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(media, "unprepared", G_CALLBACK(callback), data, destroy, 0);
}

// The server's "client-connected" signal, and a client's "play-request" (a viewer starting to play).
typedef void (*gstcam_rtsp_client_connected_callback)(GstRTSPServer *server, GstRTSPClient *client, gpointer data);
static inline gulong gstcam_rtsp_server_on_client_connected(GstRTSPServer *server, gstcam_rtsp_client_connected_callback callback,
                                                            gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(server, "client-connected", G_CALLBACK(callback), data, destroy, 0);
}
typedef void (*gstcam_rtsp_play_request_callback)(GstRTSPClient *client, GstRTSPContext *context, gpointer data);
static inline gulong gstcam_rtsp_client_on_play_request(GstRTSPClient *client, gstcam_rtsp_play_request_callback callback,
                                                        gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(client, "play-request", G_CALLBACK(callback), data, destroy, 0);
}

// A client's "closed" signal, and "pre-describe-request", whose answer other than GST_RTSP_STS_OK refuses the
// request with that status.
typedef void (*gstcam_rtsp_client_callback)(GstRTSPClient *client, gpointer data);
static inline gulong gstcam_rtsp_client_on_closed(GstRTSPClient *client, gstcam_rtsp_client_callback callback,
                                                  gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(client, "closed", G_CALLBACK(callback), data, destroy, 0);
}
typedef GstRTSPStatusCode (*gstcam_rtsp_pre_request_callback)(GstRTSPClient *client, GstRTSPContext *context, gpointer data);
static inline gulong gstcam_rtsp_client_on_pre_describe_request(GstRTSPClient *client, gstcam_rtsp_pre_request_callback callback,
                                                                gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(client, "pre-describe-request", G_CALLBACK(callback), data, destroy, 0);
}

// A client's "new-session" signal: the client was given a session (its SETUP), the mark of a viewer.
typedef void (*gstcam_rtsp_new_session_callback)(GstRTSPClient *client, GstRTSPSession *session, gpointer data);
static inline gulong gstcam_rtsp_client_on_new_session(GstRTSPClient *client, gstcam_rtsp_new_session_callback callback,
                                                       gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(client, "new-session", G_CALLBACK(callback), data, destroy, 0);
}

// A bin's "deep-element-added" signal: an element added to the bin or to any bin inside it.
typedef void (*gstcam_rtsp_element_added_callback)(GstBin *bin, GstBin *sub_bin, GstElement *element, gpointer data);
static inline gulong gstcam_rtsp_bin_on_deep_element_added(GstBin *bin, gstcam_rtsp_element_added_callback callback,
                                                           gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(bin, "deep-element-added", G_CALLBACK(callback), data, destroy, 0);
}

// GST_BIN / GST_APP_SRC are cast macros, GST_IS_BASE_SINK a type check.
static inline GstBin *gstcam_rtsp_as_bin(GstElement *element) { return GST_BIN(element); }
static inline gboolean gstcam_rtsp_is_app_src(GstElement *element) { return GST_IS_APP_SRC(element); }
static inline gboolean gstcam_rtsp_is_base_sink(GstElement *element) { return GST_IS_BASE_SINK(element); }
static inline GstAppSrc *gstcam_rtsp_as_app_src(GstElement *element) { return GST_APP_SRC(element); }

// Typed single-property setters replace the variadic g_object_set.
static inline void gstcam_rtsp_set_bool(gpointer object, const char *name, gboolean value) { g_object_set(object, name, value, NULL); }
static inline void gstcam_rtsp_set_uint64(gpointer object, const char *name, guint64 value) { g_object_set(object, name, value, NULL); }
static inline void gstcam_rtsp_set_enum(gpointer object, const char *name, gint value) { g_object_set(object, name, value, NULL); }

// GST_BUFFER_PTS / _DTS / _DURATION are field macros: the relayed copy is stamped again by the appsrc.
static inline void gstcam_rtsp_clear_timestamps(GstBuffer *buffer) {
    GST_BUFFER_PTS(buffer) = GST_CLOCK_TIME_NONE;
    GST_BUFFER_DTS(buffer) = GST_CLOCK_TIME_NONE;
    GST_BUFFER_DURATION(buffer) = GST_CLOCK_TIME_NONE;
}

// A writable buffer stamped with `time` as PTS and DTS; a probe's buffer made writable first (GST_PAD_PROBE_INFO_DATA
// is a field macro too).
static inline void gstcam_rtsp_stamp_buffer(GstBuffer *buffer, GstClockTime time) {
    GST_BUFFER_PTS(buffer) = time;
    GST_BUFFER_DTS(buffer) = time;
}
static inline void gstcam_rtsp_probe_stamp_buffer(GstPadProbeInfo *info, GstClockTime time) {
    GstBuffer *buffer = gst_buffer_make_writable(GST_PAD_PROBE_INFO_BUFFER(info));
    gstcam_rtsp_stamp_buffer(buffer, time);
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
}

// gst_buffer_copy is a static inline over gst_mini_object_copy; spelled out for the module.
static inline GstBuffer *gstcam_rtsp_buffer_copy(GstBuffer *buffer) { return gst_buffer_copy(buffer); }

// gst_rtsp_token_new and gst_rtsp_media_factory_add_role are variadic: a token carrying a media-factory role,
// and a role that may access and construct the factory's media.
static inline GstRTSPToken *gstcam_rtsp_token_with_role(const char *role) {
    return gst_rtsp_token_new(GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, G_TYPE_STRING, role, NULL);
}
static inline void gstcam_rtsp_factory_allow_role(GstRTSPMediaFactory *factory, const char *role) {
    gst_rtsp_media_factory_add_role(factory, role, GST_RTSP_PERM_MEDIA_FACTORY_ACCESS, G_TYPE_BOOLEAN, TRUE,
                                    GST_RTSP_PERM_MEDIA_FACTORY_CONSTRUCT, G_TYPE_BOOLEAN, TRUE, NULL);
}

#endif
