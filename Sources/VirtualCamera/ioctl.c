// The virtual driver's ioctls: capabilities, formats, inputs, priorities and the vb2-style buffer
// queue. Controls and events are in controls.c, the frame producer in producer.c.
#include "vcam.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static uint32_t kernel_version(void) {
    static uint32_t version;
    if (!version) {
        struct utsname u;
        unsigned a = 6, b = 1, c = 0;
        if (uname(&u) == 0) sscanf(u.release, "%u.%u.%u", &a, &b, &c);
        version = (a << 16) | (b << 8) | (c > 255 ? 255 : c);
    }
    return version;
}

static bool has_format(struct vcam_device *dev, uint32_t fourcc) {
    for (int i = 0; i < dev->nformats; i++)
        if (dev->formats[i] == fourcc) return true;
    return false;
}

void vcam_fill_format(struct vcam_device *dev, struct v4l2_pix_format *pix, uint32_t fourcc, uint32_t w, uint32_t h) {
    if (!has_format(dev, fourcc)) fourcc = dev->formats[0];
    // The closest supported size, measured as uvcvideo does (area not covered by both).
    uint64_t best = UINT64_MAX;
    struct vcam_size size = dev->sizes[0];
    for (int i = 0; i < dev->nsizes; i++) {
        uint64_t rw = dev->sizes[i].width, rh = dev->sizes[i].height;
        uint64_t overlap = (w < rw ? w : rw) * (uint64_t)(h < rh ? h : rh);
        uint64_t d = (uint64_t)w * h + rw * rh - 2 * overlap;
        if (d < best) best = d, size = dev->sizes[i];
    }
    memset(pix, 0, sizeof *pix);
    pix->width = size.width;
    pix->height = size.height;
    pix->pixelformat = fourcc;
    pix->field = V4L2_FIELD_NONE;
    switch (fourcc) {
    case V4L2_PIX_FMT_YUYV:
    case V4L2_PIX_FMT_UYVY:
        pix->bytesperline = size.width * 2;
        pix->sizeimage = size.width * size.height * 2;
        break;
    case V4L2_PIX_FMT_GREY:
    case V4L2_PIX_FMT_SBGGR8:
        pix->bytesperline = size.width;
        pix->sizeimage = size.width * size.height;
        break;
    case V4L2_PIX_FMT_RGB24:
    case V4L2_PIX_FMT_BGR24:
        pix->bytesperline = size.width * 3;
        pix->sizeimage = size.width * size.height * 3;
        break;
    case V4L2_PIX_FMT_NV12:
        pix->bytesperline = size.width;
        pix->sizeimage = size.width * size.height * 3 / 2;
        break;
    default:   // MJPG: compressed, a worst-case frame size like uvcvideo's dwMaxVideoFrameSize
        pix->bytesperline = 0;
        pix->sizeimage = size.width * size.height * 2;
        break;
    }
    pix->colorspace = V4L2_COLORSPACE_SRGB;
    pix->priv = V4L2_PIX_FMT_PRIV_MAGIC;
    pix->ycbcr_enc = V4L2_YCBCR_ENC_601;
    pix->quantization = vcam_format_is_full_range(fourcc) ? V4L2_QUANTIZATION_FULL_RANGE : V4L2_QUANTIZATION_LIM_RANGE;
    pix->xfer_func = V4L2_XFER_FUNC_SRGB;
}

// ---- helpers --------------------------------------------------------------------------------------

static int max_priority(struct vcam_device *dev) {
    for (int p = V4L2_PRIORITY_RECORD; p > V4L2_PRIORITY_UNSET; p--)
        if (dev->prio_count[p]) return p;
    return V4L2_PRIORITY_UNSET;
}

static int prio_check(struct vcam_open *op) { return (int)op->prio < max_priority(op->dev) ? -EBUSY : 0; }

// vb2_queue_is_busy, extended across processes.
static bool queue_busy(struct vcam_open *op) {
    struct vcam_device *dev = op->dev;
    if (dev->queue_owner && dev->queue_owner != op) return true;
    if (!dev->queue_owner) {
        int pid = atomic_load(&dev->shared->owner_pid);
        if (pid && pid != getpid() && !vcam_claim_owner(dev)) return true;
        if (pid && pid != getpid()) vcam_release_owner(dev);   // the claim above only tested a stale owner
    }
    return false;
}

static uint32_t buffer_caps(void) {
    return V4L2_BUF_CAP_SUPPORTS_MMAP | V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS;
}

// ---- the device-wide format -----------------------------------------------------------------------
// Like a real device, the format and frame rate belong to the device, not to a file handle or process.

static void load_format_locked(struct vcam_device *dev) {
    uint32_t fourcc = atomic_load(&dev->shared->format[0]);
    if (!fourcc) return;
    struct v4l2_pix_format pix;
    vcam_fill_format(dev, &pix, fourcc, atomic_load(&dev->shared->format[1]), atomic_load(&dev->shared->format[2]));
    dev->fmt = pix;
    struct vcam_interval stored = {atomic_load(&dev->shared->format[3]), atomic_load(&dev->shared->format[4])};
    dev->interval = vcam_nearest_interval(vcam_intervals_for(dev, pix.pixelformat, pix.width, pix.height), stored);
}

static void store_format_locked(struct vcam_device *dev) {
    atomic_store(&dev->shared->format[1], dev->fmt.width);
    atomic_store(&dev->shared->format[2], dev->fmt.height);
    atomic_store(&dev->shared->format[3], dev->interval.numerator);
    atomic_store(&dev->shared->format[4], dev->interval.denominator);
    atomic_store(&dev->shared->format[0], dev->fmt.pixelformat);
}

// ---- ioctls -------------------------------------------------------------------------------------

static int querycap(struct vcam_device *dev, struct v4l2_capability *cap) {
    memset(cap, 0, sizeof *cap);
    snprintf((char *)cap->driver, sizeof cap->driver, "%s", dev->driver);
    snprintf((char *)cap->card, sizeof cap->card, "%s", dev->card);
    snprintf((char *)cap->bus_info, sizeof cap->bus_info, "%s", dev->bus_info);
    cap->version = kernel_version();
    cap->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING | V4L2_CAP_EXT_PIX_FORMAT;
    cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
    return 0;
}

static int enum_fmt(struct vcam_device *dev, struct v4l2_fmtdesc *f) {
    if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || f->index >= (uint32_t)dev->nformats) return -EINVAL;
    uint32_t index = f->index;
    memset(f, 0, sizeof *f);
    f->index = index;
    f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    f->pixelformat = dev->formats[index];
    if (f->pixelformat == V4L2_PIX_FMT_MJPEG) f->flags = V4L2_FMT_FLAG_COMPRESSED;
    snprintf((char *)f->description, sizeof f->description, "%s", vcam_format_description(f->pixelformat));
    return 0;
}

static int enum_framesizes(struct vcam_device *dev, struct v4l2_frmsizeenum *s) {
    if (!has_format(dev, s->pixel_format) || s->index >= (uint32_t)dev->nsizes) return -EINVAL;
    uint32_t index = s->index, pf = s->pixel_format;
    memset(s, 0, sizeof *s);
    s->index = index;
    s->pixel_format = pf;
    s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
    s->discrete.width = dev->sizes[index].width;
    s->discrete.height = dev->sizes[index].height;
    return 0;
}

static int enum_frameintervals(struct vcam_device *dev, struct v4l2_frmivalenum *iv) {
    if (!has_format(dev, iv->pixel_format)) return -EINVAL;
    bool size_ok = false;
    for (int i = 0; i < dev->nsizes; i++)
        if (dev->sizes[i].width == iv->width && dev->sizes[i].height == iv->height) size_ok = true;
    if (!size_ok) return -EINVAL;
    const struct vcam_interval_list *list = vcam_intervals_for(dev, iv->pixel_format, iv->width, iv->height);
    if (iv->index >= (uint32_t)list->n) return -EINVAL;
    struct v4l2_frmivalenum out = {.index = iv->index, .pixel_format = iv->pixel_format,
                                   .width = iv->width, .height = iv->height, .type = V4L2_FRMIVAL_TYPE_DISCRETE};
    out.discrete.numerator = list->at[iv->index].numerator;
    out.discrete.denominator = list->at[iv->index].denominator;
    *iv = out;
    return 0;
}

static int format_ioctl(struct vcam_open *op, unsigned long request, struct v4l2_format *f) {
    struct vcam_device *dev = op->dev;
    if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return -EINVAL;
    if (request == VIDIOC_G_FMT) {
        memset(&f->fmt, 0, sizeof f->fmt);
        f->fmt.pix = dev->fmt;
        return 0;
    }
    if (request == VIDIOC_S_FMT) {
        int r = prio_check(op);
        if (r) return r;
    }
    struct v4l2_pix_format pix;
    vcam_fill_format(dev, &pix, f->fmt.pix.pixelformat, f->fmt.pix.width, f->fmt.pix.height);
    if (request == VIDIOC_S_FMT) {
        if (queue_busy(op) || dev->nbuffers) return -EBUSY;
        dev->fmt = pix;
        // The new size may not offer the current rate: keep the nearest it has (uvcvideo and vivid both do).
        dev->interval = vcam_nearest_interval(vcam_intervals_for(dev, pix.pixelformat, pix.width, pix.height),
                                              dev->interval);
        store_format_locked(dev);
    }
    memset(&f->fmt, 0, sizeof f->fmt);
    f->fmt.pix = pix;
    return 0;
}

static int parm_ioctl(struct vcam_open *op, unsigned long request, struct v4l2_streamparm *p) {
    struct vcam_device *dev = op->dev;
    if (p->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return -EINVAL;
    if (request == VIDIOC_S_PARM) {
        int r = prio_check(op);
        if (r) return r;
        if (dev->streaming || queue_busy(op)) return -EBUSY;
        struct v4l2_fract t = p->parm.capture.timeperframe;
        if (t.numerator && t.denominator) {
            // The supported rate closest to the requested one, at the current format and size.
            const struct vcam_interval_list *list = vcam_intervals_for(dev, dev->fmt.pixelformat, dev->fmt.width,
                                                                       dev->fmt.height);
            dev->interval = vcam_nearest_interval(list, (struct vcam_interval){t.numerator, t.denominator});
            store_format_locked(dev);
        }
    }
    memset(&p->parm, 0, sizeof p->parm);
    p->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
    p->parm.capture.timeperframe.numerator = dev->interval.numerator;
    p->parm.capture.timeperframe.denominator = dev->interval.denominator;
    return 0;
}

static int reqbufs(struct vcam_open *op, struct v4l2_requestbuffers *rb) {
    struct vcam_device *dev = op->dev;
    if (rb->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return -EINVAL;
    rb->capabilities = buffer_caps();
    rb->flags = 0;
    memset(rb->reserved, 0, sizeof rb->reserved);
    if (rb->memory != V4L2_MEMORY_MMAP) return -EINVAL;
    int r = prio_check(op);
    if (r) return r;
    if (queue_busy(op)) return -EBUSY;
    if (dev->streaming) return -EBUSY;
    dev->queue_error = false;
    if (rb->count && vcam_take_injected(dev, VCAM_INJECT_REQBUFS)) return -EINVAL;   // vivid: queue_setup fails
    vcam_buffers_free_locked(dev);
    if (rb->count == 0) {
        dev->queue_owner = NULL;
        vcam_release_owner(dev);
        return 0;
    }
    if (!vcam_claim_owner(dev)) return -EBUSY;
    uint32_t want = rb->count > VCAM_MAX_BUFFERS ? VCAM_MAX_BUFFERS : rb->count;
    int made = vcam_buffers_alloc_locked(dev, want, dev->fmt.sizeimage);
    if (made <= 0) {
        vcam_release_owner(dev);
        return -ENOMEM;
    }
    rb->count = (uint32_t)made;
    dev->queue_owner = op;
    return 0;
}

static int create_bufs(struct vcam_open *op, struct v4l2_create_buffers *cb) {
    struct vcam_device *dev = op->dev;
    if (cb->format.type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return -EINVAL;
    cb->capabilities = buffer_caps();
    cb->flags = 0;
    memset(cb->reserved, 0, sizeof cb->reserved);
    if (cb->memory != V4L2_MEMORY_MMAP) return -EINVAL;
    int r = prio_check(op);
    if (r) return r;
    if (queue_busy(op)) return -EBUSY;
    cb->index = (uint32_t)dev->nbuffers;
    if (cb->count == 0) return 0;
    if (cb->format.fmt.pix.sizeimage < dev->fmt.sizeimage) return -EINVAL;
    if (dev->nbuffers >= VCAM_MAX_BUFFERS) return -ENOBUFS;
    if (!vcam_claim_owner(dev)) return -EBUSY;
    uint32_t room = (uint32_t)(VCAM_MAX_BUFFERS - dev->nbuffers);
    int made = vcam_buffers_alloc_locked(dev, cb->count < room ? cb->count : room, cb->format.fmt.pix.sizeimage);
    if (made <= 0) return -ENOMEM;
    cb->count = (uint32_t)made;
    dev->queue_owner = op;
    return 0;
}

// vb2_core_expbuf: a buffer's memory as a file of its own (a dma-buf), which outlives the queue and the video node.
// v4l2src asks for one per buffer whenever a driver can export them (every vb2 driver: vivid, uvcvideo) and maps
// each only while it reads the frame, so a buffer no element reads costs the process no memory. Here the file is a
// second open file of the buffer's memfd: it maps the same pages through the real mmap, as a dma-buf's own mmap
// bypasses the video node, and DMA_BUF_IOCTL_SYNC on it is answered in interpose.c.
static int expbuf(struct vcam_open *op, struct v4l2_exportbuffer *e) {
    struct vcam_device *dev = op->dev;
    if (dev->no_export) return -ENOTTY;
    if (!dev->nbuffers) return -EINVAL;   // vb2: no MMAP buffers yet (v4l2src's probe for export support)
    if (e->flags & ~(uint32_t)(O_CLOEXEC | O_ACCMODE)) return -EINVAL;
    if (e->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || e->index >= (uint32_t)dev->nbuffers || e->plane != 0) return -EINVAL;
    if (queue_busy(op)) return -EBUSY;
    char path[48];
    snprintf(path, sizeof path, "/proc/self/fd/%d", dev->buffers[e->index]->memfd);
    int fd = vcam_real_open(path, (int)(e->flags & (O_CLOEXEC | O_ACCMODE)), 0);
    if (fd < 0) return -errno;
    e->fd = fd;
    memset(e->reserved, 0, sizeof e->reserved);
    return 0;
}

static int querybuf(struct vcam_device *dev, struct v4l2_buffer *b) {
    if (b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return -EINVAL;
    if (b->index >= (uint32_t)dev->nbuffers) return -EINVAL;
    vcam_buffer_report(dev->buffers[b->index], b);
    return 0;
}

static int qbuf(struct vcam_open *op, struct v4l2_buffer *b) {
    struct vcam_device *dev = op->dev;
    if (b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return -EINVAL;
    if (queue_busy(op)) return -EBUSY;
    if (b->index >= (uint32_t)dev->nbuffers || b->memory != V4L2_MEMORY_MMAP) return -EINVAL;
    if (b->flags & V4L2_BUF_FLAG_REQUEST_FD) return -EBADR;
    struct vcam_buffer *buf = dev->buffers[b->index];
    if (buf->queued || buf->done) return -EINVAL;
    if (dev->queue_error) return -EIO;
    if (vcam_take_injected(dev, VCAM_INJECT_QBUF)) return -EINVAL;   // vivid: buf_prepare fails
    buf->queued = true;
    buf->v.bytesused = 0;
    dev->queued[dev->nqueued++] = (int)b->index;
    pthread_cond_broadcast(&dev->cond);
    vcam_buffer_report(buf, b);
    return 0;
}

static int dqbuf(struct vcam_open *op, struct v4l2_buffer *b) {
    struct vcam_device *dev = op->dev;
    if (b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return -EINVAL;
    if (queue_busy(op)) return -EBUSY;
    if (b->memory != V4L2_MEMORY_MMAP) return -EINVAL;
    while (!dev->ndone || dev->queue_error) {
        if (op->dead) return -ENODEV;
        if (dev->queue_error) return -EIO;
        if (!dev->streaming) return -EINVAL;
        if (fcntl(op->own_fd, F_GETFL) & O_NONBLOCK) return -EAGAIN;
        pthread_cond_wait(&dev->cond, &dev->lock);
    }
    int idx = dev->done[0];
    memmove(dev->done, dev->done + 1, sizeof(int) * (size_t)--dev->ndone);
    struct vcam_buffer *buf = dev->buffers[idx];
    buf->done = false;
    vcam_socket_take_ready(op);
    vcam_buffer_report(buf, b);
    return 0;
}

static int streamon(struct vcam_open *op, const int *type) {
    struct vcam_device *dev = op->dev;
    if (*type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return -EINVAL;
    int r = prio_check(op);
    if (r) return r;
    if (queue_busy(op)) return -EBUSY;
    if (!dev->nbuffers) return -EINVAL;
    if (dev->streaming) return 0;
    if (vcam_take_injected(dev, VCAM_INJECT_STREAMON)) return -EINVAL;   // vivid: start_streaming fails
    while (dev->producer_alive) pthread_cond_wait(&dev->cond, &dev->lock);   // a stopping stream's thread
    dev->streaming = true;
    dev->sequence = 0;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int created = pthread_create(&dev->producer, &attr, vcam_producer_main, dev);
    pthread_attr_destroy(&attr);
    if (created != 0) {
        dev->streaming = false;
        return -ENOMEM;
    }
    dev->producer_alive = true;
    return 0;
}

static int streamoff(struct vcam_open *op, const int *type) {
    struct vcam_device *dev = op->dev;
    if (*type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return -EINVAL;
    int r = prio_check(op);
    if (r) return r;
    if (queue_busy(op)) return -EBUSY;
    vcam_stop_streaming_locked(dev);
    dev->queue_error = false;
    return 0;
}

static int input_ioctl(struct vcam_open *op, unsigned long request, void *arg) {
    if (request == VIDIOC_ENUMINPUT) {
        struct v4l2_input *in = arg;
        if (in->index != 0) return -EINVAL;
        memset(in, 0, sizeof *in);
        snprintf((char *)in->name, sizeof in->name, "%s", op->dev->input_name);
        in->type = V4L2_INPUT_TYPE_CAMERA;
        return 0;
    }
    if (request == VIDIOC_G_INPUT) {
        *(int *)arg = 0;
        return 0;
    }
    int r = prio_check(op);
    if (r) return r;
    return *(int *)arg == 0 ? 0 : -EINVAL;
}

static int priority_ioctl(struct vcam_open *op, unsigned long request, uint32_t *p) {
    struct vcam_device *dev = op->dev;
    if (request == VIDIOC_G_PRIORITY) {
        *p = (uint32_t)max_priority(dev);
        return 0;
    }
    if (*p != V4L2_PRIORITY_BACKGROUND && *p != V4L2_PRIORITY_INTERACTIVE && *p != V4L2_PRIORITY_RECORD)
        return -EINVAL;
    int r = prio_check(op);
    if (r) return r;
    dev->prio_count[op->prio]--;
    op->prio = (enum v4l2_priority)*p;
    dev->prio_count[op->prio]++;
    return 0;
}

static bool is_known(unsigned long request) {
    switch (request) {
    case VIDIOC_QUERYCTRL: case VIDIOC_QUERY_EXT_CTRL: case VIDIOC_QUERYMENU: case VIDIOC_G_CTRL:
    case VIDIOC_G_EXT_CTRLS: case VIDIOC_TRY_EXT_CTRLS: case VIDIOC_S_CTRL: case VIDIOC_S_EXT_CTRLS:
    case VIDIOC_SUBSCRIBE_EVENT: case VIDIOC_UNSUBSCRIBE_EVENT: case VIDIOC_DQEVENT: case VIDIOC_QUERYCAP:
    case VIDIOC_ENUM_FMT: case VIDIOC_ENUM_FRAMESIZES: case VIDIOC_ENUM_FRAMEINTERVALS: case VIDIOC_ENUMINPUT:
    case VIDIOC_G_INPUT: case VIDIOC_S_INPUT: case VIDIOC_G_PRIORITY: case VIDIOC_S_PRIORITY: case VIDIOC_G_FMT:
    case VIDIOC_S_FMT: case VIDIOC_TRY_FMT: case VIDIOC_G_PARM: case VIDIOC_S_PARM: case VIDIOC_REQBUFS:
    case VIDIOC_CREATE_BUFS: case VIDIOC_QUERYBUF: case VIDIOC_QBUF: case VIDIOC_DQBUF: case VIDIOC_STREAMON:
    case VIDIOC_STREAMOFF: case VIDIOC_EXPBUF:
        return true;
    default:
        return false;
    }
}

int vcam_ioctl(struct vcam_open *op, unsigned long request, void *arg) {
    struct vcam_device *dev = op->dev;
    if (op->dead) return -ENODEV;
    if (vcam_fault_unplugged(dev) || vcam_fault_disconnected(dev)) {
        pthread_mutex_lock(&dev->lock);
        vcam_unplug_locked(dev);
        pthread_mutex_unlock(&dev->lock);
        return -ENODEV;
    }
    int injected = vcam_fault_take_ioctl_failure(dev, request);
    if (injected) return -injected;
    if (!arg && _IOC_SIZE(request) && is_known(request)) return -EFAULT;

    switch (request) {
    case VIDIOC_QUERYCTRL:
    case VIDIOC_QUERY_EXT_CTRL:
    case VIDIOC_QUERYMENU:
    case VIDIOC_G_CTRL:
    case VIDIOC_G_EXT_CTRLS:
    case VIDIOC_TRY_EXT_CTRLS:
        return vcam_control_ioctl(op, request, arg);
    case VIDIOC_S_CTRL:
    case VIDIOC_S_EXT_CTRLS: {
        pthread_mutex_lock(&dev->lock);
        int r = prio_check(op);
        pthread_mutex_unlock(&dev->lock);
        return r ? r : vcam_control_ioctl(op, request, arg);
    }
    case VIDIOC_SUBSCRIBE_EVENT:
    case VIDIOC_UNSUBSCRIBE_EVENT:
    case VIDIOC_DQEVENT:
        return vcam_event_ioctl(op, request, arg);
    case VIDIOC_QUERYCAP:
        return querycap(dev, arg);
    case VIDIOC_ENUM_FMT:
        return enum_fmt(dev, arg);
    case VIDIOC_ENUM_FRAMESIZES:
        return enum_framesizes(dev, arg);
    case VIDIOC_ENUM_FRAMEINTERVALS:
        return enum_frameintervals(dev, arg);
    case VIDIOC_ENUMINPUT:
    case VIDIOC_G_INPUT:
    case VIDIOC_S_INPUT:
    case VIDIOC_G_PRIORITY:
    case VIDIOC_S_PRIORITY:
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT:
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM:
    case VIDIOC_REQBUFS:
    case VIDIOC_CREATE_BUFS:
    case VIDIOC_QUERYBUF:
    case VIDIOC_QBUF:
    case VIDIOC_DQBUF:
    case VIDIOC_STREAMON:
    case VIDIOC_STREAMOFF:
    case VIDIOC_EXPBUF:
        break;
    default:
        return -ENOTTY;
    }

    pthread_mutex_lock(&dev->lock);
    if (!dev->nbuffers) load_format_locked(dev);   // buffers pin the format they were made for
    int r;
    switch (request) {
    case VIDIOC_ENUMINPUT:
    case VIDIOC_G_INPUT:
    case VIDIOC_S_INPUT: r = input_ioctl(op, request, arg); break;
    case VIDIOC_G_PRIORITY:
    case VIDIOC_S_PRIORITY: r = priority_ioctl(op, request, arg); break;
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT: r = format_ioctl(op, request, arg); break;
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: r = parm_ioctl(op, request, arg); break;
    case VIDIOC_REQBUFS: r = reqbufs(op, arg); break;
    case VIDIOC_CREATE_BUFS: r = create_bufs(op, arg); break;
    case VIDIOC_QUERYBUF: r = querybuf(dev, arg); break;
    case VIDIOC_QBUF: r = qbuf(op, arg); break;
    case VIDIOC_DQBUF: r = dqbuf(op, arg); break;
    case VIDIOC_STREAMON: r = streamon(op, arg); break;
    case VIDIOC_STREAMOFF: r = streamoff(op, arg); break;
    case VIDIOC_EXPBUF: r = expbuf(op, arg); break;
    default: r = -ENOTTY; break;
    }
    pthread_mutex_unlock(&dev->lock);
    return r;
}

// A released open is freed only after 64 later releases: an ioctl racing with close() on the same fd
// (which lookup() cannot stop) still finds valid, dead memory, while a program that opens devices
// over and over does not grow.
#define GRAVEYARD_SIZE 64
static struct vcam_open *graveyard[GRAVEYARD_SIZE];
static unsigned graveyard_next;
static pthread_mutex_t graveyard_lock = PTHREAD_MUTEX_INITIALIZER;

static void bury(struct vcam_open *op) {
    pthread_mutex_lock(&graveyard_lock);
    struct vcam_open *old = graveyard[graveyard_next];
    graveyard[graveyard_next] = op;
    graveyard_next = (graveyard_next + 1) % GRAVEYARD_SIZE;
    pthread_mutex_unlock(&graveyard_lock);
    free(old);
}

static void release_open(struct vcam_open *op);

// Drops one reference (an fd or a mapping); the last one releases the open file, as the kernel calls a
// driver's release() only when no fd and no vma refers to the file any more.
void vcam_open_unref(struct vcam_open *op) {
    if (atomic_fetch_sub(&op->refs, 1) == 1) release_open(op);
}

static void release_open(struct vcam_open *op) {
    struct vcam_device *dev = op->dev;
    pthread_mutex_lock(&dev->lock);
    if (dev->queue_owner == op) {
        vcam_stop_streaming_locked(dev);
        vcam_buffers_free_locked(dev);
        dev->queue_owner = NULL;
        vcam_release_owner(dev);
    }
    dev->prio_count[op->prio]--;
    for (struct vcam_open **pp = &dev->opens; *pp; pp = &(*pp)->next)
        if (*pp == op) {
            *pp = op->next;
            break;
        }
    op->closed = true;
    op->dead = true;   // an ioctl racing with this close fails instead of using the released queue
    if (op->peer_fd >= 0) vcam_real_close(op->peer_fd);
    op->peer_fd = -1;
    if (op->own_fd >= 0) vcam_real_close(op->own_fd);
    op->own_fd = -1;
    vcam_holder_remove(dev);
    vcam_reconnect_if_unused(dev);   // vivid comes back when its last file handle is closed
    pthread_mutex_unlock(&dev->lock);
    bury(op);
}
