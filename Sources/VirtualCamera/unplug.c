// Unplug: what happens to a device's file handles and queue when its `unplugged` fault file appears,
// and the watcher thread that notices it (and other processes' control changes) while nobody calls an
// ioctl, so a waiting poll still wakes up.
#include "vcam.h"

#include <string.h>
#include <unistd.h>

// The device is gone: every open file handle dies, and the queue is detached at once (before the
// lock is ever released) so a replugged device starts fresh, as a new device instance would. The
// detached buffers are freed once the producer has stopped using them; app mappings stay valid.
void vcam_unplug_locked(struct vcam_device *dev) {
    for (struct vcam_open *op = dev->opens; op; op = op->next) {
        if (op->dead) continue;
        op->dead = true;
        vcam_socket_reset(op);
    }
    struct vcam_buffer *detached[VCAM_MAX_BUFFERS];
    int n = dev->nbuffers;
    memcpy(detached, dev->buffers, sizeof detached[0] * (size_t)n);
    memset(dev->buffers, 0, sizeof dev->buffers);
    dev->nbuffers = dev->nqueued = dev->ndone = 0;
    dev->queue_owner = NULL;
    vcam_release_owner(dev);
    vcam_stop_streaming_locked(dev);
    vcam_buffers_free_list(detached, n);
}

// ---- watcher: notices an unplug while nobody calls an ioctl (a poll must still wake up) and control
// changes made by other processes (they become events here) -------------------------------------------

static void *watcher_main(void *arg) {
    (void)arg;
    for (;;) {
        usleep(50000);
        for (int i = 0; i < vcam_ndevices; i++) {
            struct vcam_device *dev = &vcam_devices[i];
            bool live = false, subscribed = false;
            pthread_mutex_lock(&dev->lock);
            for (struct vcam_open *op = dev->opens; op; op = op->next)
                if (!op->dead) {
                    live = true;
                    if (op->nsubs) subscribed = true;
                }
            if (subscribed) vcam_controls_notice_foreign_changes_locked(dev);
            pthread_mutex_unlock(&dev->lock);
            if (!live || !(vcam_fault_unplugged(dev) || vcam_fault_disconnected(dev))) continue;
            pthread_mutex_lock(&dev->lock);
            vcam_unplug_locked(dev);
            pthread_mutex_unlock(&dev->lock);
        }
    }
    return NULL;
}

static pthread_once_t watcher_once = PTHREAD_ONCE_INIT;

static void start_watcher(void) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    pthread_create(&t, &attr, watcher_main, NULL);
    pthread_attr_destroy(&attr);
}

void vcam_open_started(struct vcam_open *op) {
    op->own_fd = -1;
    pthread_once(&watcher_once, start_watcher);
}

