// vb2-style MMAP buffers: one memfd per buffer, mapped by the producer and (at the buffer's own offset)
// by the application, so mappings outlive the queue (orphaned buffers).
#include "vcam.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BUFFER_OFFSET_SHIFT 24

void vcam_buffers_free_list(struct vcam_buffer **list, int n) {
    for (int i = 0; i < n; i++) {
        struct vcam_buffer *b = list[i];
        if (!b) continue;
        vcam_forget_buffer_mappings(b);
        vcam_real_munmap(b->kaddr, b->map_length);
        vcam_real_close(b->memfd);   // mappings the app still holds stay valid (orphaned buffers)
        free(b);
        list[i] = NULL;
    }
}

void vcam_buffers_free_locked(struct vcam_device *dev) {
    vcam_buffers_free_list(dev->buffers, dev->nbuffers);
    dev->nbuffers = 0;
    dev->nqueued = dev->ndone = 0;
}

int vcam_buffers_alloc_locked(struct vcam_device *dev, uint32_t count, uint32_t size) {
    long page = sysconf(_SC_PAGESIZE);
    uint32_t made = 0;
    for (; made < count && dev->nbuffers < VCAM_MAX_BUFFERS; made++) {
        struct vcam_buffer *b = calloc(1, sizeof *b);
        if (!b) break;
        b->length = size;
        b->map_length = ((size_t)size + (size_t)page - 1) / (size_t)page * (size_t)page;
        b->memfd = (int)syscall(SYS_memfd_create, "vcam-buffer", 1u /* MFD_CLOEXEC */);
        if (b->memfd < 0 || ftruncate(b->memfd, (off_t)b->map_length) != 0) {
            if (b->memfd >= 0) vcam_real_close(b->memfd);
            free(b);
            break;
        }
        b->kaddr = vcam_real_mmap(NULL, b->map_length, PROT_READ | PROT_WRITE, MAP_SHARED, b->memfd, 0);
        if (b->kaddr == MAP_FAILED) {
            vcam_real_close(b->memfd);
            free(b);
            break;
        }
        int idx = dev->nbuffers++;
        b->v.index = (uint32_t)idx;
        b->v.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        b->v.memory = V4L2_MEMORY_MMAP;
        b->v.field = V4L2_FIELD_NONE;
        b->v.length = size;
        b->v.m.offset = (uint32_t)idx << BUFFER_OFFSET_SHIFT;
        // vivid stamps the end of the frame; the others (uvcvideo among them) its start.
        b->v.flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC |
                     (dev->profile == VCAM_PROFILE_VIVID ? V4L2_BUF_FLAG_TSTAMP_SRC_EOF : V4L2_BUF_FLAG_TSTAMP_SRC_SOE);
        dev->buffers[idx] = b;
    }
    return (int)made;
}

void vcam_buffer_report(struct vcam_buffer *b, struct v4l2_buffer *out) {
    *out = b->v;
    out->flags &= ~(V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_QUEUED | V4L2_BUF_FLAG_DONE);
    if (atomic_load(&b->mappings) > 0) out->flags |= V4L2_BUF_FLAG_MAPPED;
    if (b->queued) out->flags |= V4L2_BUF_FLAG_QUEUED;
    if (b->done) out->flags |= V4L2_BUF_FLAG_DONE | V4L2_BUF_FLAG_QUEUED;
}

