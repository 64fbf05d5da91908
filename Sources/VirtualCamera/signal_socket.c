// The app's fd is one end of a loopback TCP connection (interpose.c); this is how the driver makes the
// kernel report the right poll events on it: one byte per filled buffer (POLLIN), one out-of-band byte
// while events are pending (POLLPRI), a reset for an unplug (POLLERR|POLLHUP).
#include "vcam.h"

#include <errno.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

void vcam_socket_consume_event(struct vcam_open *op) {
    if (!op->oob_pending) return;
    char c;
    for (int i = 0; i < 50; i++) {
        if (recv(op->own_fd, &c, 1, MSG_OOB | MSG_DONTWAIT) == 1) break;
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINVAL) break;
        usleep(100);
    }
    op->oob_pending = false;
}

void vcam_socket_signal_event(struct vcam_open *op) {
    if (op->oob_pending || op->peer_fd < 0) return;
    if (send(op->peer_fd, "!", 1, MSG_OOB | MSG_NOSIGNAL | MSG_DONTWAIT) == 1) op->oob_pending = true;
}

// Takes one "buffer ready" byte off the socket (keeping an event's POLLPRI alive across it).
void vcam_socket_take_ready(struct vcam_open *op) {
    bool events = op->oob_pending;
    vcam_socket_consume_event(op);
    char c;
    if (recv(op->own_fd, &c, 1, MSG_DONTWAIT) != 1) { /* already drained */ }
    if (events && op->nevents) vcam_socket_signal_event(op);
}

void vcam_socket_drain(struct vcam_open *op) {
    bool events = op->oob_pending;
    vcam_socket_consume_event(op);
    char tmp[64];
    while (recv(op->own_fd, tmp, sizeof tmp, MSG_DONTWAIT) > 0) {}
    if (events && op->nevents) vcam_socket_signal_event(op);
}

// A reset connection makes every poll on the app's fd report POLLERR|POLLHUP, and the urgent byte
// sent before it POLLPRI, as v4l2_poll reports for a node whose device is gone (an app waiting only
// for events, in select's exceptfds, wakes up too).
void vcam_socket_reset(struct vcam_open *op) {
    if (op->peer_fd < 0) return;
    vcam_socket_signal_event(op);
    // Disconnecting sends the reset even when a forked child still holds a copy of our end (closing
    // our fd alone would then send nothing).
    struct sockaddr unspec = {.sa_family = AF_UNSPEC};
    connect(op->peer_fd, &unspec, sizeof unspec);
    struct linger lg = {1, 0};
    setsockopt(op->peer_fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    vcam_real_close(op->peer_fd);
    op->peer_fd = -1;
}

void vcam_socket_signal_ready(struct vcam_open *op) {
    if (op && op->peer_fd >= 0) send(op->peer_fd, "b", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}
