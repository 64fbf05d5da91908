// The "hardware": a thread per streaming device that fills the oldest queued buffer once per frame
// interval, applying the stall/drop faults, and hands it back to DQBUF.
#include "vcam.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static void timespec_at(uint64_t ns, struct timespec *ts) {
    ts->tv_sec = (time_t)(ns / 1000000000ull);
    ts->tv_nsec = (long)(ns % 1000000000ull);
}

void *vcam_producer_main(void *arg) {
    struct vcam_device *dev = arg;
    struct vcam_renderer *renderer = vcam_renderer_new();
    unsigned seed = (unsigned)vcam_now_ns();
    pthread_mutex_lock(&dev->lock);
    uint64_t interval = 1000000000ull * dev->interval.numerator / dev->interval.denominator;
    // vivid's capture thread fills its first frame as soon as it starts, at STREAMON, and the next ones a frame
    // interval apart (in the guest at 1 fps: the first frame as soon as at 25 fps, three frames in 2 s); a USB
    // camera sends its first frame one exposure later.
    uint64_t next = vcam_now_ns() + (dev->profile == VCAM_PROFILE_VIVID ? 0 : interval);
    while (dev->streaming) {
        uint64_t now = vcam_now_ns();
        if (now < next) {
            struct timespec ts;
            timespec_at(next, &ts);
            pthread_cond_timedwait(&dev->cond, &dev->lock, &ts);
            continue;
        }
        uint64_t started = now;
        next += interval;
        if (next < now) next = now + interval;
        pthread_mutex_unlock(&dev->lock);
        bool unplugged = vcam_fault_unplugged(dev) || vcam_fault_disconnected(dev);
        bool stalled = !unplugged && vcam_fault_stalled(dev);
        int drop = unplugged || stalled ? 0 : vcam_fault_drop_percent(dev);
        int dropped_control = (int)vcam_control_value(dev, VCAM_CID_VIVID_DROPPED_PERCENT, 0);
        if (dropped_control > drop) drop = dropped_control;
        bool fatal = vcam_take_injected(dev, VCAM_INJECT_FATAL);
        pthread_mutex_lock(&dev->lock);
        if (!dev->streaming) break;
        if (unplugged) {
            vcam_unplug_locked(dev);
            break;
        }
        if (stalled) continue;
        if (fatal) {
            // vb2_queue_error: every waiter wakes, QBUF and DQBUF fail with EIO until STREAMOFF.
            dev->queue_error = true;
            vcam_socket_signal_ready(dev->queue_owner);
            pthread_cond_broadcast(&dev->cond);
            continue;
        }
        if (drop && (int)(rand_r(&seed) % 100) < drop) {
            dev->sequence++;   // the frame was lost on the way, as a gap in the sequence shows
            continue;
        }
        if (!dev->nqueued) {
            // No buffer to fill: the frame is lost, and its sequence number with it. vivid (its sequence counts
            // frame intervals since STREAMON) and uvcvideo ("so that discontinuous sequence numbers always
            // indicate lost frames") both leave this gap; an application too slow to queue buffers must see it.
            dev->sequence++;
            continue;
        }
        int idx = dev->queued[0];
        memmove(dev->queued, dev->queued + 1, sizeof(int) * (size_t)--dev->nqueued);
        struct vcam_buffer *b = dev->buffers[idx];
        uint32_t seq = dev->sequence++;
        struct v4l2_pix_format fmt = dev->fmt;
        pthread_mutex_unlock(&dev->lock);
        // A kernel driver fills buffers through the kernel's own mapping, which is no process's memory. YUYV and
        // NV12 are written into the buffer's file without mapping it; for the other formats the producer's
        // mapping holds the buffer's pages only while it draws (one call maps them all, instead of a fault per
        // page). So a process pays for a buffer only where it maps and reads it, as on vivid.
        int64_t used = vcam_render_to_file(renderer, dev, &fmt, seq, b->memfd, b->length);
        if (used < 0) {
            madvise(b->kaddr, b->map_length, MADV_POPULATE_WRITE);
            used = vcam_render(renderer, dev, &fmt, seq, b->kaddr, b->length);
            madvise(b->kaddr, b->map_length, MADV_DONTNEED);
        }
        pthread_mutex_lock(&dev->lock);
        if (!dev->streaming) break;
        b->queued = false;
        b->done = true;
        b->v.bytesused = (uint32_t)used;
        b->v.sequence = seq;
        b->v.flags &= ~V4L2_BUF_FLAG_ERROR;
        if (vcam_take_injected(dev, VCAM_INJECT_BUF_FLAG_ERROR)) b->v.flags |= V4L2_BUF_FLAG_ERROR;
        b->v.field = V4L2_FIELD_NONE;
        // vivid computes its end-of-frame stamp as the frame's start plus 90 % of a frame interval, and hands the
        // frame over at its start: the stamp is in the future when it is dequeued (56 ms at 15 fps), and
        // v4l2src, finding it so, stamps frames itself, one frame interval before they arrive.
        uint64_t stamp = dev->profile == VCAM_PROFILE_VIVID ? started + interval * 9 / 10 : started;
        b->v.timestamp.tv_sec = (time_t)(stamp / 1000000000ull);
        b->v.timestamp.tv_usec = (suseconds_t)(stamp % 1000000000ull / 1000);
        dev->done[dev->ndone++] = idx;
        vcam_socket_signal_ready(dev->queue_owner);
        pthread_cond_broadcast(&dev->cond);
    }
    dev->producer_alive = false;
    pthread_cond_broadcast(&dev->cond);
    pthread_mutex_unlock(&dev->lock);
    vcam_renderer_free(renderer);
    return NULL;
}

// Stops the producer and returns every buffer to the application. Waits (releasing the lock) until the
// producer thread is gone, unless called from it.
void vcam_stop_streaming_locked(struct vcam_device *dev) {
    dev->streaming = false;
    pthread_cond_broadcast(&dev->cond);
    if (!(dev->producer_alive && pthread_equal(dev->producer, pthread_self())))
        while (dev->producer_alive) pthread_cond_wait(&dev->cond, &dev->lock);
    for (int i = 0; i < dev->nbuffers; i++) {
        if (!dev->buffers[i]) continue;
        dev->buffers[i]->queued = dev->buffers[i]->done = false;
    }
    dev->nqueued = dev->ndone = 0;
    if (dev->queue_owner && !dev->queue_owner->dead) vcam_socket_drain(dev->queue_owner);
}

