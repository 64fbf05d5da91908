// GStreamer/GLib shims: macros and variadic calls that Swift cannot import, as prefixed inline functions.
#ifndef GSTCAM_GST_SHIM_H
#define GSTCAM_GST_SHIM_H

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/base/gstbasesrc.h>
#include <gst/video/video.h>
#include <gst/video/navigation.h>
#include <gst/tag/tag.h>

// GST_CLOCK_TIME_NONE is a macro cast, not a constant Swift can see.
static inline GstClockTime gstcam_clock_time_none(void) { return GST_CLOCK_TIME_NONE; }

// GST_MESSAGE_TYPE reads a struct field through a macro.
static inline GstMessageType gstcam_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }

// GST_MESSAGE_SRC is a macro; the source object is borrowed.
static inline GstObject *gstcam_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }

// GST_OBJECT_NAME is a macro over a field that may change under the object lock; this copies it.
static inline gchar *gstcam_object_dup_name(gpointer object) { return gst_object_get_name(GST_OBJECT(object)); }

// GST_BUFFER_PTS is a field macro.
static inline GstClockTime gstcam_buffer_pts(GstBuffer *buffer) { return GST_BUFFER_PTS(buffer); }

// GST_PAD_PROBE_INFO_BUFFER / _EVENT are macros over a union.
static inline GstBuffer *gstcam_probe_info_buffer(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_BUFFER(info); }
static inline GstEvent *gstcam_probe_info_event(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_EVENT(info); }

// GST_EVENT_TYPE is a field macro.
static inline GstEventType gstcam_event_type(GstEvent *event) { return GST_EVENT_TYPE(event); }

// GST_IS_BIN / GST_BIN / GST_APP_SINK are cast macros.
static inline gboolean gstcam_is_bin(gpointer object) { return GST_IS_BIN(object); }
static inline GstBin *gstcam_as_bin(gpointer object) { return GST_BIN(object); }
static inline GstAppSink *gstcam_as_app_sink(GstElement *element) { return GST_APP_SINK(element); }
static inline gboolean gstcam_is_app_sink(GstElement *element) { return GST_IS_APP_SINK(element); }
// Pushes a sample's buffer (and its caps, when they changed) into an appsrc; the sample stays the caller's.
static inline GstFlowReturn gstcam_app_src_push_sample(GstElement *element, GstSample *sample) {
    return gst_app_src_push_sample(GST_APP_SRC(element), sample);
}

// GST_IS_BASE_SRC / GST_BASE_SRC are cast macros.
static inline gboolean gstcam_is_base_src(GstElement *element) { return GST_IS_BASE_SRC(element); }
static inline GstBaseSrc *gstcam_as_base_src(GstElement *element) { return GST_BASE_SRC(element); }
// G_OBJECT_GET_CLASS is a macro: whether an object has a property of that name (setting a missing one warns).
static inline gboolean gstcam_has_property(gpointer object, const char *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name) != NULL;
}

// Typed single-property setters replace the variadic g_object_set.
static inline void gstcam_set_bool(gpointer object, const char *name, gboolean value) { g_object_set(object, name, value, NULL); }
static inline void gstcam_set_int(gpointer object, const char *name, gint value) { g_object_set(object, name, value, NULL); }
static inline void gstcam_set_uint(gpointer object, const char *name, guint value) { g_object_set(object, name, value, NULL); }
static inline void gstcam_set_string(gpointer object, const char *name, const char *value) { g_object_set(object, name, value, NULL); }
static inline void gstcam_set_caps(gpointer object, const char *name, GstCaps *value) { g_object_set(object, name, value, NULL); }

// A typed single-property getter replaces the variadic g_object_get.
static inline gint gstcam_get_int(gpointer object, const char *name) { gint v = 0; g_object_get(object, name, &v, NULL); return v; }
static inline guint64 gstcam_get_uint64(gpointer object, const char *name) { guint64 v = 0; g_object_get(object, name, &v, NULL); return v; }
// The name of the factory an element was made by ("ximagesink"), or NULL.
static inline const gchar *gstcam_element_factory_name(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    return factory ? gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(factory)) : NULL;
}

// A caps-typed property as a newly allocated string (g_object_get is variadic).
static inline gchar *gstcam_get_caps_string(gpointer object, const char *name) {
    GstCaps *caps = NULL;
    g_object_get(object, name, &caps, NULL);
    if (!caps) return NULL;
    gchar *text = gst_caps_to_string(caps);
    gst_caps_unref(caps);
    return text;
}

// GstMapInfo is filled by gst_buffer_map; Swift can call that directly, but GST_MAP_READ is an enum flag set.
static inline gboolean gstcam_buffer_map_read(GstBuffer *buffer, GstMapInfo *info) { return gst_buffer_map(buffer, info, GST_MAP_READ); }

// GError's domain is a GQuark; the GStreamer error quarks are functions Swift can call, so only the
// struct access is wrapped to keep call sites readable.
static inline GQuark gstcam_error_domain(const GError *error) { return error->domain; }
static inline gint gstcam_error_code(const GError *error) { return error->code; }

// GST_IS_TAG_SETTER is a type-check macro.
static inline gboolean gstcam_is_tag_setter(GstElement *element) { return GST_IS_TAG_SETTER(element); }

// gst_tag_list_add is variadic; these add one tag of one type (replacing an earlier value).
static inline void gstcam_tag_list_add_string(GstTagList *list, const char *tag, const char *value) {
    gst_tag_list_add(list, GST_TAG_MERGE_REPLACE, tag, value, NULL);
}
static inline void gstcam_tag_list_add_double(GstTagList *list, const char *tag, gdouble value) {
    gst_tag_list_add(list, GST_TAG_MERGE_REPLACE, tag, value, NULL);
}
static inline void gstcam_tag_list_add_date_time(GstTagList *list, const char *tag, GstDateTime *value) {
    gst_tag_list_add(list, GST_TAG_MERGE_REPLACE, tag, value, NULL);
}
// GST_TAG_SETTER is a cast macro. The element's tags become exactly `list`'s (none left from an earlier one).
static inline void gstcam_tag_setter_set(GstElement *element, const GstTagList *list) {
    gst_tag_setter_reset_tags(GST_TAG_SETTER(element));
    gst_tag_setter_merge_tags(GST_TAG_SETTER(element), list, GST_TAG_MERGE_REPLACE);
}

// gst_buffer_make_writable is a macro; the probe's data must then point at the (possibly copied) buffer.
static inline GstBuffer *gstcam_probe_info_writable_buffer(GstPadProbeInfo *info) {
    GstBuffer *buffer = gst_buffer_make_writable(GST_PAD_PROBE_INFO_BUFFER(info));
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    return buffer;
}

// gst_buffer_make_writable is a macro: a buffer the caller owns, made writable (copied if shared).
static inline GstBuffer *gstcam_buffer_make_writable(GstBuffer *buffer) { return gst_buffer_make_writable(buffer); }

// gst_buffer_is_writable is a macro: whether the caller's reference is the buffer's only one.
static inline gboolean gstcam_buffer_is_writable(GstBuffer *buffer) { return gst_buffer_is_writable(buffer); }

// GST_MAP_WRITE, like GST_MAP_READ above, is an enum flag set.
static inline gboolean gstcam_buffer_map_write(GstBuffer *buffer, GstMapInfo *info) { return gst_buffer_map(buffer, info, GST_MAP_WRITE); }

// GST_GHOST_PAD is a cast macro; used to point a parsed bin's "sink" ghost pad at the pad the branch starts with.
static inline gboolean gstcam_ghost_pad_set_target(GstPad *ghost, GstPad *target) { return gst_ghost_pad_set_target(GST_GHOST_PAD(ghost), target); }

// GST_GHOST_PAD is a cast macro; whether `ghost` points at `pad` (the reference to its target is dropped here).
static inline gboolean gstcam_ghost_pad_targets(GstPad *ghost, GstPad *pad) {
    GstPad *target = gst_ghost_pad_get_target(GST_GHOST_PAD(ghost));
    if (target) gst_object_unref(target);
    return target != NULL && target == pad;
}

// GST_APP_SRC is a cast macro; the appsrc takes the buffer over.
static inline GstFlowReturn gstcam_app_src_push_buffer(GstElement *element, GstBuffer *buffer) {
    return gst_app_src_push_buffer(GST_APP_SRC(element), buffer);
}

#endif
