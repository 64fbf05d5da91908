// Internal declarations of the virtual V4L2 camera (LD_PRELOAD library). Nothing here is public API:
// programs reach the camera only through the libc calls interposed in interpose.c.
#ifndef VCAM_INTERNAL_H
#define VCAM_INTERNAL_H

#include <linux/videodev2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define VCAM_MAX_DEVICES 16
#define VCAM_MAX_HOLDERS 32
#define VCAM_MAX_FORMATS 8
#define VCAM_MAX_SIZES 8
#define VCAM_MAX_RATES 12
#define VCAM_MAX_BUFFERS 32
#define VCAM_MAX_CONTROLS 48
#define VCAM_PAYLOAD_BYTES 1024
#define VCAM_MAX_EVENTS 64
#define VCAM_MAX_SUBSCRIPTIONS 32
#define VCAM_FD_TABLE_SIZE 65536
#define VCAM_VIDEO_MAJOR 81
#define VCAM_STAMP_ROWS 16
#define VCAM_STAMP_BITS 32

// These UVC region-of-interest definitions are newer than Debian 12's kernel headers.
#define VCAM_CID_UVC_REGION_OF_INTEREST_RECT 0x00981ae1
#define VCAM_CID_UVC_REGION_OF_INTEREST_AUTO 0x00981ae2
#define VCAM_CTRL_TYPE_RECT 0x0107
#define VCAM_CTRL_WHICH_MIN_VAL 0x0f020000
#define VCAM_CTRL_WHICH_MAX_VAL 0x0f030000

enum vcam_profile { VCAM_PROFILE_UVC, VCAM_PROFILE_SENSOR, VCAM_PROFILE_BASIC, VCAM_PROFILE_WEBCAM, VCAM_PROFILE_VIVID };

struct vcam_size { uint32_t width, height; };

// A frame interval as V4L2 gives it: seconds per frame (1/25 is 25 fps, 2/25 is 12.5 fps, 1001/30000 is 29.97).
struct vcam_interval { uint32_t numerator, denominator; };

// The frame intervals one format offers at one size, in ENUM_FRAMEINTERVALS order.
struct vcam_interval_list { int n; struct vcam_interval at[VCAM_MAX_RATES]; };

// One control as a driver would register it with the v4l2 control framework.
struct vcam_control {
    uint32_t id;
    uint32_t type;
    const char *name;
    int64_t minimum, maximum, step, default_value;
    uint32_t flags;
    const char *const *menu;   // MENU controls: names indexed by value (NULL entries are skipped)
    const int64_t *int_menu;   // INTEGER_MENU controls: values indexed by item
    uint64_t skip_mask;        // INTEGER_MENU items that do not exist (bit n: item n)
    uint32_t dims[V4L2_CTRL_MAX_DIMS];   // arrays (U8/U16/U32): their dimensions; all 0 for a single value
};

// Vivid's own control class and the ids vivid gives its disconnect button (vivid-ctrls.c).
#define VCAM_CID_VIVID_CLASS 0x00f00001
#define VCAM_CID_VIVID_DISCONNECT 0x00f0f041
#define VCAM_CID_VIVID_DROPPED_PERCENT 0x00f0f040
#define VCAM_CID_VIVID_BUF_FLAG_ERROR 0x00f0f042
#define VCAM_CID_VIVID_REQBUFS_ERROR 0x00f0f043
#define VCAM_CID_VIVID_QBUF_ERROR 0x00f0f044
#define VCAM_CID_VIVID_STREAMON_ERROR 0x00f0f045
#define VCAM_CID_VIVID_FATAL_ERROR 0x00f0f046

// vivid's error injection, pending until the ioctl or frame it affects (bits of vcam_shared.injected).
enum {
    VCAM_INJECT_REQBUFS = 1u << 0,
    VCAM_INJECT_QBUF = 1u << 1,
    VCAM_INJECT_STREAMON = 1u << 2,
    VCAM_INJECT_BUF_FLAG_ERROR = 1u << 3,
    VCAM_INJECT_FATAL = 1u << 4,
};

// State shared by every process that uses a device: one mmap'ed file per device in the state directory.
struct vcam_shared {
    _Atomic uint32_t ready;            // 0 fresh, 1 initialising, 2 initialised
    _Atomic int32_t owner_pid;         // process whose file handle owns the buffer queue (streams)
    _Atomic int64_t value[VCAM_MAX_CONTROLS];
    _Atomic int32_t roi[4];            // region-of-interest rectangle: left, top, width, height
    _Atomic uint64_t focus_busy_until; // CLOCK_MONOTONIC ns; auto_focus_status is BUSY until then
    _Atomic uint32_t strobe_pending;   // frames left to be lit by a flash strobe
    _Atomic uint32_t generation;       // bumped on every control change (render cache key)
    uint8_t payload[VCAM_PAYLOAD_BYTES]; // string and array control values (each at its control's offset)
    _Atomic int32_t holder_pid[VCAM_MAX_HOLDERS];   // processes that have the device open …
    _Atomic int32_t holder_opens[VCAM_MAX_HOLDERS]; // … and how many open file handles each has
    _Atomic uint32_t injected;         // VCAM_INJECT_* errors waiting for their ioctl or frame
    _Atomic uint32_t format[5];        // current fourcc, width, height, interval numerator, denominator (0: default)
};

struct vcam_device {
    int index;
    char path[64];      // "/dev/video0"
    char name[32];      // "video0"
    int minor;
    enum vcam_profile profile;
    char card[32], driver[16], bus_info[32];
    bool no_export;                   // `export=no`: VIDIOC_EXPBUF is ENOTTY (a driver without vb2's export)
    uint8_t rgb[3];     // identity colour
    int nformats;
    uint32_t formats[VCAM_MAX_FORMATS];
    int nsizes;
    struct vcam_size sizes[VCAM_MAX_SIZES];
    int nrates;                       // the `fps` option: one list of intervals for every format and size
    struct vcam_interval rates[VCAM_MAX_RATES];
    // The mode table: intervals[f][s] are what formats[f] offers at sizes[s] (every format has every size).
    struct vcam_interval_list intervals[VCAM_MAX_FORMATS][VCAM_MAX_SIZES];
    struct vcam_size default_size;
    struct vcam_interval default_interval;
    const char *input_name;           // VIDIOC_ENUMINPUT
    int ncontrols;
    const struct vcam_control *controls[VCAM_MAX_CONTROLS];
    int slot[VCAM_MAX_CONTROLS];      // index of each control's value in vcam_shared.value
    char state_dir[200];              // $VCAM_STATE_DIR/video0
    struct vcam_shared *shared;       // mapped on first open (vcam_state_attach)
    _Atomic bool attached;

    // Per-process driver state, guarded by lock.
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct v4l2_pix_format fmt;
    struct vcam_interval interval;    // current frame interval
    int prio_count[4];                // open file handles per priority
    struct vcam_open *queue_owner;
    int nbuffers;
    struct vcam_buffer *buffers[VCAM_MAX_BUFFERS];
    int queued[VCAM_MAX_BUFFERS], nqueued;     // FIFO of buffer indexes given to the "hardware"
    int done[VCAM_MAX_BUFFERS], ndone;         // FIFO of filled buffer indexes
    bool streaming;
    bool queue_error;                 // vb2_queue_error: QBUF and DQBUF fail with EIO until STREAMOFF
    bool producer_alive;              // the producer thread has not finished yet (it clears this)
    pthread_t producer;
    uint32_t sequence;
    struct vcam_open *opens;          // every open file handle of this device (linked by next)
    bool seen_valid;                  // seen[] holds the control values this process last notified
    int64_t seen[VCAM_MAX_CONTROLS];
};

struct vcam_buffer {
    int memfd;
    uint32_t length;     // bytes usable (sizeimage at allocation)
    size_t map_length;   // page aligned
    uint8_t *kaddr;      // our own mapping, written by the producer
    struct v4l2_buffer v; // the state QUERYBUF reports
    bool queued, done;
    _Atomic int mappings;
};

struct vcam_subscription { uint32_t type, id, flags; };

// One open() of a virtual device (an open file description: dups share it).
struct vcam_open {
    struct vcam_device *dev;
    // References that keep this open file alive: fds in the table pointing here plus buffer mappings made
    // through it (a vma holds its struct file, so the queue outlives close() until the last munmap).
    _Atomic int refs;
    int peer_fd;               // our end of the socket pair: one byte per filled buffer, OOB byte = event
    int own_fd;                // our dup of the app's end, to take those bytes off again
    enum v4l2_priority prio;
    bool dead;                 // saw an unplug: everything fails with ENODEV
    bool closed;               // released: freed a while later (see bury in ioctl.c)
    bool oob_pending;
    int nsubs;
    struct vcam_subscription subs[VCAM_MAX_SUBSCRIPTIONS];
    int nevents;
    struct v4l2_event events[VCAM_MAX_EVENTS];
    uint32_t event_sequence;
    struct vcam_open *next;
};

// config.c
extern int vcam_ndevices;
extern struct vcam_device vcam_devices[VCAM_MAX_DEVICES];
void vcam_init(void);
struct vcam_device *vcam_device_for_path(const char *path);
struct vcam_device *vcam_device_for_rdev(dev_t rdev);
const char *vcam_format_description(uint32_t fourcc);
// Formats rendered from the full-range planar frame and converted per frame (everything but YUYV, NV12, MJPG).
bool vcam_format_is_converted(uint32_t fourcc);
bool vcam_format_is_full_range(uint32_t fourcc);
const struct vcam_interval_list *vcam_intervals_for(struct vcam_device *dev, uint32_t fourcc, uint32_t w, uint32_t h);
struct vcam_interval vcam_nearest_interval(const struct vcam_interval_list *list, struct vcam_interval want);

// state.c
void vcam_state_locate(struct vcam_device *dev);
void vcam_state_attach(struct vcam_device *dev);
bool vcam_fault_unplugged(struct vcam_device *dev);
bool vcam_fault_denied(struct vcam_device *dev);
bool vcam_fault_stalled(struct vcam_device *dev);
bool vcam_fault_disconnected(struct vcam_device *dev);
void vcam_disconnect(struct vcam_device *dev);
void vcam_holder_add(struct vcam_device *dev);
void vcam_holder_remove(struct vcam_device *dev);
bool vcam_reconnect_if_unused(struct vcam_device *dev);
int vcam_fault_drop_percent(struct vcam_device *dev);
int vcam_fault_take_ioctl_failure(struct vcam_device *dev, unsigned long request);
bool vcam_claim_owner(struct vcam_device *dev);
void vcam_release_owner(struct vcam_device *dev);

// controls.c
void vcam_controls_setup(struct vcam_device *dev);
void vcam_controls_init_shared(struct vcam_device *dev);
int vcam_control_ioctl(struct vcam_open *op, unsigned long request, void *arg);
int64_t vcam_control_value(struct vcam_device *dev, uint32_t id, int64_t fallback);
void vcam_controls_notice_foreign_changes_locked(struct vcam_device *dev);
bool vcam_take_injected(struct vcam_device *dev, uint32_t bit);
void vcam_event_push_locked(struct vcam_open *op, const struct v4l2_event *ev);
int vcam_event_ioctl(struct vcam_open *op, unsigned long request, void *arg);

// ioctl.c
int vcam_ioctl(struct vcam_open *op, unsigned long request, void *arg);
void vcam_stop_streaming_locked(struct vcam_device *dev);
void vcam_open_unref(struct vcam_open *op);
void vcam_open_started(struct vcam_open *op);
void vcam_forget_buffer_mappings(struct vcam_buffer *buf);
void vcam_fill_format(struct vcam_device *dev, struct v4l2_pix_format *pix, uint32_t fourcc, uint32_t w, uint32_t h);

// buffers.c
void vcam_buffers_free_list(struct vcam_buffer **list, int n);
void vcam_buffers_free_locked(struct vcam_device *dev);
int vcam_buffers_alloc_locked(struct vcam_device *dev, uint32_t count, uint32_t size);
void vcam_buffer_report(struct vcam_buffer *b, struct v4l2_buffer *out);

// signal_socket.c
void vcam_socket_signal_ready(struct vcam_open *op);
void vcam_socket_take_ready(struct vcam_open *op);
void vcam_socket_drain(struct vcam_open *op);
void vcam_socket_signal_event(struct vcam_open *op);
void vcam_socket_consume_event(struct vcam_open *op);
void vcam_socket_reset(struct vcam_open *op);

// producer.c
void *vcam_producer_main(void *device);

// unplug.c
void vcam_unplug_locked(struct vcam_device *dev);

// frames.c
struct vcam_renderer;
struct vcam_renderer *vcam_renderer_new(void);
void vcam_renderer_free(struct vcam_renderer *r);
// Renders frame `sequence` of a Motion-JPEG or converted format into dst and returns the bytes used.
uint32_t vcam_render(struct vcam_renderer *r, struct vcam_device *dev, const struct v4l2_pix_format *fmt,
                     uint32_t sequence, uint8_t *dst, uint32_t capacity);
// Renders frame `sequence` into the file `fd` (a buffer's memfd) without mapping it, for the formats that allow
// it (YUYV, NV12); returns the bytes used, or -1 for a format vcam_render must draw through a mapping.
int64_t vcam_render_to_file(struct vcam_renderer *r, struct vcam_device *dev, const struct v4l2_pix_format *fmt,
                            uint32_t sequence, int fd, uint32_t capacity);

// interpose.c: the real libc functions.
int vcam_real_close(int fd);
ssize_t vcam_real_read(int fd, void *buf, size_t n);
ssize_t vcam_real_write(int fd, const void *buf, size_t n);
void *vcam_real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int vcam_real_munmap(void *addr, size_t len);
int vcam_real_open(const char *path, int flags, mode_t mode);
int vcam_real_stat(const char *path, struct stat *st);

uint64_t vcam_now_ns(void);

#endif
