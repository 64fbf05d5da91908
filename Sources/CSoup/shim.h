// libsoup 3 shims for GstCamera's web camera page: signal connections (g_signal_connect is a macro taking an
// untyped callback), casts and variadic calls Swift cannot import, as prefixed inline functions.
#ifndef GSTCAM_CSOUP_SHIM_H
#define GSTCAM_CSOUP_SHIM_H

#include <libsoup/soup.h>
#include <string.h>

// soup_server_new is variadic (construct properties); a server with the default ones.
static inline SoupServer *gstcam_soup_server_new(void) { return soup_server_new(NULL, NULL); }

// The server's "tls-certificate" property (g_object_set is variadic): HTTPS with this certificate.
static inline void gstcam_soup_server_set_tls_certificate(SoupServer *server, GTlsCertificate *certificate) {
    g_object_set(server, "tls-certificate", certificate, NULL);
}

// A server message's "finished" (the response is sent, or the client went away) and "wrote-chunk" signals.
typedef void (*gstcam_soup_message_callback)(SoupServerMessage *message, gpointer data);
static inline gulong gstcam_soup_message_on_finished(SoupServerMessage *message, gstcam_soup_message_callback callback,
                                                     gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(message, "finished", G_CALLBACK(callback), data, destroy, 0);
}
static inline gulong gstcam_soup_message_on_wrote_chunk(SoupServerMessage *message, gstcam_soup_message_callback callback,
                                                        gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(message, "wrote-chunk", G_CALLBACK(callback), data, destroy, 0);
}

// A WebSocket connection's "message" and "closed" signals.
typedef void (*gstcam_soup_websocket_message_callback)(SoupWebsocketConnection *connection, gint type, GBytes *message, gpointer data);
static inline gulong gstcam_soup_websocket_on_message(SoupWebsocketConnection *connection, gstcam_soup_websocket_message_callback callback,
                                                      gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(connection, "message", G_CALLBACK(callback), data, destroy, 0);
}
typedef void (*gstcam_soup_websocket_callback)(SoupWebsocketConnection *connection, gpointer data);
static inline gulong gstcam_soup_websocket_on_closed(SoupWebsocketConnection *connection, gstcam_soup_websocket_callback callback,
                                                     gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(connection, "closed", G_CALLBACK(callback), data, destroy, 0);
}
// Its "error" signal (emitted before libsoup closes for an error such as a message over the size limit), and
// SOUP_WEBSOCKET_ERROR, a macro.
typedef void (*gstcam_soup_websocket_error_callback)(SoupWebsocketConnection *connection, GError *error, gpointer data);
static inline gulong gstcam_soup_websocket_on_error(SoupWebsocketConnection *connection, gstcam_soup_websocket_error_callback callback,
                                                    gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(connection, "error", G_CALLBACK(callback), data, destroy, 0);
}
static inline GQuark gstcam_soup_websocket_error_domain(void) { return SOUP_WEBSOCKET_ERROR; }

// G_INET_SOCKET_ADDRESS / G_SOCKET_ADDRESS are cast macros.
static inline guint16 gstcam_soup_socket_port(GSocket *socket) {
    GSocketAddress *address = g_socket_get_local_address(socket, NULL);
    if (!address) return 0;
    guint16 port = g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(address));
    g_object_unref(address);
    return port;
}
static inline GSocketAddress *gstcam_soup_socket_address(const char *host, guint16 port) {
    GInetAddress *inet = g_inet_address_new_from_string(host);
    if (!inet) return NULL;
    GSocketAddress *address = g_inet_socket_address_new(inet, port);
    g_object_unref(inet);
    return address;
}

// Refuses a request whose headers were read, without reading its body: libsoup reads a body even when an
// early handler set a status (unless the client asked "Expect: 100-continue"), so the connection is taken
// from libsoup, given the complete `response` (a status line and headers) and closed.
static inline void gstcam_soup_refuse_and_close(SoupServerMessage *message, const char *response) {
    GIOStream *stream = soup_server_message_steal_connection(message);
    if (!stream) return;
    g_output_stream_write_all(g_io_stream_get_output_stream(stream), response, strlen(response), NULL, NULL, NULL);
    g_io_stream_close(stream, NULL, NULL);
    g_object_unref(stream);
}

#endif
