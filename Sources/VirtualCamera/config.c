// Which device paths are virtual and what each one looks like (VCAM_DEVICES, docs/virtual-camera.md).
#include "vcam.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

int vcam_ndevices;
struct vcam_device vcam_devices[VCAM_MAX_DEVICES];

static const uint8_t default_colours[VCAM_MAX_DEVICES][3] = {
    {230, 30, 30}, {30, 200, 30}, {30, 60, 230}, {230, 200, 30},
    {200, 30, 200}, {30, 200, 200}, {240, 120, 20}, {120, 60, 20},
};

uint64_t vcam_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const char *vcam_format_description(uint32_t fourcc) {
    switch (fourcc) {
    case V4L2_PIX_FMT_YUYV: return "YUYV 4:2:2";
    case V4L2_PIX_FMT_NV12: return "Y/CbCr 4:2:0";
    case V4L2_PIX_FMT_MJPEG: return "Motion-JPEG";
    case V4L2_PIX_FMT_UYVY: return "UYVY 4:2:2";
    case V4L2_PIX_FMT_GREY: return "8-bit Greyscale";
    case V4L2_PIX_FMT_RGB24: return "24-bit RGB 8-8-8";
    case V4L2_PIX_FMT_BGR24: return "24-bit BGR 8-8-8";
    case V4L2_PIX_FMT_SBGGR8: return "8-bit Bayer BGBG/GRGR";
    default: return NULL;
    }
}

bool vcam_format_is_converted(uint32_t fourcc) {
    return fourcc == V4L2_PIX_FMT_UYVY || fourcc == V4L2_PIX_FMT_GREY || fourcc == V4L2_PIX_FMT_RGB24 ||
           fourcc == V4L2_PIX_FMT_BGR24 || fourcc == V4L2_PIX_FMT_SBGGR8;
}

// JPEG, greyscale and RGB-like formats carry full-range values; YUYV, UYVY and NV12 limited-range ones.
bool vcam_format_is_full_range(uint32_t fourcc) {
    return fourcc == V4L2_PIX_FMT_MJPEG || (vcam_format_is_converted(fourcc) && fourcc != V4L2_PIX_FMT_UYVY);
}

static uint32_t parse_fourcc(const char *s, size_t n) {
    if (n == 4 && !strncasecmp(s, "YUYV", 4)) return V4L2_PIX_FMT_YUYV;
    if (n == 4 && !strncasecmp(s, "NV12", 4)) return V4L2_PIX_FMT_NV12;
    if (n == 4 && !strncasecmp(s, "MJPG", 4)) return V4L2_PIX_FMT_MJPEG;
    if (n == 5 && !strncasecmp(s, "MJPEG", 5)) return V4L2_PIX_FMT_MJPEG;
    if (n == 4 && !strncasecmp(s, "UYVY", 4)) return V4L2_PIX_FMT_UYVY;
    if (n == 4 && !strncasecmp(s, "GREY", 4)) return V4L2_PIX_FMT_GREY;
    if (n == 4 && !strncasecmp(s, "RGB3", 4)) return V4L2_PIX_FMT_RGB24;
    if (n == 4 && !strncasecmp(s, "BGR3", 4)) return V4L2_PIX_FMT_BGR24;
    if (n == 4 && !strncasecmp(s, "BA81", 4)) return V4L2_PIX_FMT_SBGGR8;
    return 0;
}

static const struct vcam_size all_sizes[] = {{320, 240}, {640, 480}, {1280, 720}, {1920, 1080}};

// vivid's webcam input (drivers/media/test-drivers/vivid/vivid-vid-cap.c, Linux 6.1): six sizes, and at
// size i the first 2 × (6 − i) of these intervals (slowest first), so 640x480 tops at 25 fps, 1280x720
// at 12.5 and 1920x1080 at 5.
static const struct vcam_size vivid_sizes[] = {{320, 180}, {640, 360}, {640, 480}, {1280, 720}, {1920, 1080}, {3840, 2160}};
static const struct vcam_interval vivid_intervals[] = {
    {1, 1}, {1, 2}, {1, 4}, {1, 5}, {1, 10}, {2, 25}, {1, 15}, {1, 25}, {1, 30}, {1, 40}, {1, 50}, {1, 60},
};

static void set_defaults(struct vcam_device *dev, enum vcam_profile profile) {
    dev->profile = profile;
    dev->nrates = 0;   // no `fps` option: the profile's own table
    dev->input_name = "Camera 1";
    switch (profile) {
    case VCAM_PROFILE_UVC:
        snprintf(dev->card, sizeof dev->card, "Virtual UVC Camera (%s)", dev->name);
        snprintf(dev->driver, sizeof dev->driver, "uvcvideo");
        snprintf(dev->bus_info, sizeof dev->bus_info, "usb-vcam-%d", dev->index + 1);
        dev->nformats = 3;
        dev->formats[0] = V4L2_PIX_FMT_YUYV;
        dev->formats[1] = V4L2_PIX_FMT_NV12;
        dev->formats[2] = V4L2_PIX_FMT_MJPEG;
        dev->nsizes = 4;
        memcpy(dev->sizes, all_sizes, sizeof all_sizes);
        break;
    case VCAM_PROFILE_SENSOR:
        snprintf(dev->card, sizeof dev->card, "Virtual Sensor Camera (%s)", dev->name);
        snprintf(dev->driver, sizeof dev->driver, "vcam-sensor");
        snprintf(dev->bus_info, sizeof dev->bus_info, "platform:vcam-sensor-%d", dev->index + 1);
        dev->nformats = 3;
        dev->formats[0] = V4L2_PIX_FMT_NV12;
        dev->formats[1] = V4L2_PIX_FMT_YUYV;
        dev->formats[2] = V4L2_PIX_FMT_MJPEG;
        dev->nsizes = 4;
        memcpy(dev->sizes, all_sizes, sizeof all_sizes);
        break;
    case VCAM_PROFILE_BASIC:
        snprintf(dev->card, sizeof dev->card, "Virtual Basic Webcam (%s)", dev->name);
        snprintf(dev->driver, sizeof dev->driver, "uvcvideo");
        snprintf(dev->bus_info, sizeof dev->bus_info, "usb-vcam-%d", dev->index + 1);
        dev->nformats = 2;
        dev->formats[0] = V4L2_PIX_FMT_YUYV;
        dev->formats[1] = V4L2_PIX_FMT_NV12;
        dev->nsizes = 2;
        dev->sizes[0] = all_sizes[0];
        dev->sizes[1] = all_sizes[1];
        break;
    case VCAM_PROFILE_WEBCAM:
        snprintf(dev->card, sizeof dev->card, "Virtual HD Webcam (%s)", dev->name);
        snprintf(dev->driver, sizeof dev->driver, "uvcvideo");
        snprintf(dev->bus_info, sizeof dev->bus_info, "usb-vcam-%d", dev->index + 1);
        dev->nformats = 2;
        dev->formats[0] = V4L2_PIX_FMT_YUYV;
        dev->formats[1] = V4L2_PIX_FMT_MJPEG;
        dev->nsizes = 3;
        memcpy(dev->sizes, all_sizes + 1, sizeof all_sizes[0] * 3);
        break;
    case VCAM_PROFILE_VIVID:
        snprintf(dev->card, sizeof dev->card, "Virtual vivid (%s)", dev->name);
        snprintf(dev->driver, sizeof dev->driver, "vivid");
        snprintf(dev->bus_info, sizeof dev->bus_info, "platform:vivid-%03d", dev->index);
        dev->input_name = "Webcam 0";
        // The formats of vivid's 83 this camera renders, in vivid's order.
        dev->nformats = 7;
        dev->formats[0] = V4L2_PIX_FMT_YUYV;
        dev->formats[1] = V4L2_PIX_FMT_UYVY;
        dev->formats[2] = V4L2_PIX_FMT_NV12;
        dev->formats[3] = V4L2_PIX_FMT_GREY;
        dev->formats[4] = V4L2_PIX_FMT_RGB24;
        dev->formats[5] = V4L2_PIX_FMT_BGR24;
        dev->formats[6] = V4L2_PIX_FMT_SBGGR8;
        dev->nsizes = 6;
        memcpy(dev->sizes, vivid_sizes, sizeof vivid_sizes);
        break;
    }
}

static void add_interval(struct vcam_interval_list *list, uint32_t numerator, uint32_t denominator) {
    if (list->n < VCAM_MAX_RATES) list->at[list->n++] = (struct vcam_interval){numerator, denominator};
}

// The profile's frame intervals for one format and size, fastest first unless the driver it copies
// lists them otherwise.
static void profile_intervals(const struct vcam_device *dev, uint32_t fourcc, struct vcam_size size,
                              struct vcam_interval_list *list) {
    list->n = 0;
    switch (dev->profile) {
    case VCAM_PROFILE_WEBCAM:
        // A typical UVC webcam: USB 2 bandwidth limits raw YUYV; Motion-JPEG reaches 30 fps at every size.
        if (fourcc == V4L2_PIX_FMT_MJPEG || size.width * size.height <= 640 * 480) {
            add_interval(list, 1, 30);
            add_interval(list, 1, 15);
        } else if (size.width * size.height <= 1280 * 720) {
            add_interval(list, 1, 10);
            add_interval(list, 1, 5);
        } else {
            add_interval(list, 1, 5);
        }
        return;
    case VCAM_PROFILE_VIVID: {
        int rank = 0;   // sizes above this one in vivid's table
        for (size_t i = 0; i < sizeof vivid_sizes / sizeof vivid_sizes[0]; i++)
            if ((uint64_t)vivid_sizes[i].width * vivid_sizes[i].height > (uint64_t)size.width * size.height) rank++;
        for (int i = 0; i < 2 * (rank + 1) && i < (int)(sizeof vivid_intervals / sizeof vivid_intervals[0]); i++)
            add_interval(list, vivid_intervals[i].numerator, vivid_intervals[i].denominator);
        return;
    }
    default:
        add_interval(list, 1, 30);
        add_interval(list, 1, 15);
        return;
    }
}

// Fills the mode table and the power-on mode once the profile and the options are known.
static void build_mode_table(struct vcam_device *dev, bool size_option) {
    for (int f = 0; f < dev->nformats; f++)
        for (int s = 0; s < dev->nsizes; s++) {
            struct vcam_interval_list *list = &dev->intervals[f][s];
            if (dev->nrates) {
                list->n = dev->nrates;
                memcpy(list->at, dev->rates, sizeof dev->rates[0] * (size_t)dev->nrates);
            } else {
                profile_intervals(dev, dev->formats[f], dev->sizes[s], list);
            }
        }
    // vivid powers on at 640x360, 5 fps; the others at their second size and their first interval.
    dev->default_size = dev->sizes[dev->nsizes > 1 ? 1 : 0];
    const struct vcam_interval_list *list = vcam_intervals_for(dev, dev->formats[0], dev->default_size.width,
                                                               dev->default_size.height);
    dev->default_interval = list->at[0];
    if (dev->profile == VCAM_PROFILE_VIVID && !dev->nrates && !size_option)
        dev->default_interval = vcam_nearest_interval(list, (struct vcam_interval){1, 5});
}

const struct vcam_interval_list *vcam_intervals_for(struct vcam_device *dev, uint32_t fourcc, uint32_t w, uint32_t h) {
    int f = 0, s = 0;
    for (int i = 0; i < dev->nformats; i++)
        if (dev->formats[i] == fourcc) f = i;
    for (int i = 0; i < dev->nsizes; i++)
        if (dev->sizes[i].width == w && dev->sizes[i].height == h) s = i;
    return &dev->intervals[f][s];
}

// The interval of the list whose frame rate is closest to the wanted one.
struct vcam_interval vcam_nearest_interval(const struct vcam_interval_list *list, struct vcam_interval want) {
    struct vcam_interval best = list->at[0];
    if (!want.numerator || !want.denominator) return best;
    double wanted = (double)want.denominator / want.numerator, best_distance = -1;
    for (int i = 0; i < list->n; i++) {
        double d = (double)list->at[i].denominator / list->at[i].numerator - wanted;
        if (d < 0) d = -d;
        if (best_distance < 0 || d < best_distance - 1e-9) best = list->at[i], best_distance = d;
    }
    return best;
}

// "30", "12.5" or "30000/1001" frames per second as a frame interval; {0, 0} if it is none of those.
static struct vcam_interval parse_rate(const char *s) {
    unsigned a, b;
    char tail;
    if (sscanf(s, "%u/%u%c", &a, &b, &tail) == 2 && a && b && a / b <= 240) return (struct vcam_interval){b, a};
    char *end;
    double fps = strtod(s, &end);
    if (*end || !(fps > 0) || fps > 240) return (struct vcam_interval){0, 0};
    uint32_t denominator = 1000;   // 12.5 → 2/25, 7.5 → 2/15, 30 → 1/30
    uint32_t numerator = (uint32_t)(fps * denominator + 0.5);
    uint32_t x = numerator, y = denominator;
    while (y) { uint32_t t = x % y; x = y; y = t; }
    return (struct vcam_interval){denominator / x, numerator / x};
}

// Applies one "key=value" option; unknown keys are reported once on stderr and ignored.
static void apply_option(struct vcam_device *dev, const char *opt, size_t len, bool *size_option) {
    const char *eq = memchr(opt, '=', len);
    if (!eq) {
        fprintf(stderr, "vcam: ignoring option '%.*s' for %s (expected key=value)\n", (int)len, opt, dev->path);
        return;
    }
    size_t klen = (size_t)(eq - opt);
    const char *val = eq + 1;
    size_t vlen = len - klen - 1;
    char buf[128];
    snprintf(buf, sizeof buf, "%.*s", (int)vlen, val);
    if (klen == 4 && !strncmp(opt, "card", 4)) {
        snprintf(dev->card, sizeof dev->card, "%s", buf);
    } else if (klen == 6 && !strncmp(opt, "driver", 6)) {
        snprintf(dev->driver, sizeof dev->driver, "%s", buf);
    } else if (klen == 3 && !strncmp(opt, "bus", 3)) {
        snprintf(dev->bus_info, sizeof dev->bus_info, "%s", buf);
    } else if (klen == 5 && !strncmp(opt, "color", 5)) {
        unsigned long rgb = strtoul(buf[0] == '#' ? buf + 1 : buf, NULL, 16);
        dev->rgb[0] = (uint8_t)(rgb >> 16);
        dev->rgb[1] = (uint8_t)(rgb >> 8);
        dev->rgb[2] = (uint8_t)rgb;
    } else if (klen == 7 && !strncmp(opt, "formats", 7)) {
        int n = 0;
        for (char *tok = strtok(buf, "+"); tok && n < VCAM_MAX_FORMATS; tok = strtok(NULL, "+")) {
            uint32_t f = parse_fourcc(tok, strlen(tok));
            if (f) dev->formats[n++] = f;
            else fprintf(stderr, "vcam: unknown format '%s' for %s (YUYV, NV12, MJPG, UYVY, GREY, RGB3, BGR3, BA81)\n", tok, dev->path);
        }
        if (n) dev->nformats = n;
    } else if (klen == 5 && !strncmp(opt, "sizes", 5)) {
        int n = 0;
        for (char *tok = strtok(buf, "+"); tok && n < VCAM_MAX_SIZES; tok = strtok(NULL, "+")) {
            unsigned w, h;
            if (sscanf(tok, "%ux%u", &w, &h) == 2 && w >= 64 && h >= 64 && w <= 4096 && h <= 4096 && !(w % 32) && !(h % 2))
                dev->sizes[n++] = (struct vcam_size){w, h};
            else fprintf(stderr, "vcam: bad size '%s' for %s (WxH, width a multiple of 32)\n", tok, dev->path);
        }
        if (n) dev->nsizes = n, *size_option = true;
    } else if (klen == 3 && !strncmp(opt, "fps", 3)) {
        int n = 0;
        for (char *tok = strtok(buf, "+"); tok && n < VCAM_MAX_RATES; tok = strtok(NULL, "+")) {
            struct vcam_interval r = parse_rate(tok);
            if (r.numerator) dev->rates[n++] = r;
            else fprintf(stderr, "vcam: bad frame rate '%s' for %s (e.g. 30, 12.5, 30000/1001)\n", tok, dev->path);
        }
        if (n) dev->nrates = n;
    } else if (klen == 6 && !strncmp(opt, "export", 6)) {
        // A driver without vb2's buffer export (v4l2loopback, as OBS's virtual camera uses): EXPBUF is ENOTTY,
        // and v4l2src maps every buffer through the video node instead (its mmap I/O mode).
        if (!strcmp(buf, "no")) dev->no_export = true;
        else if (!strcmp(buf, "yes")) dev->no_export = false;
        else fprintf(stderr, "vcam: bad export '%s' for %s (yes or no)\n", buf, dev->path);
    } else {
        fprintf(stderr, "vcam: unknown option '%.*s' for %s\n", (int)klen, opt, dev->path);
    }
}

// Parses one "path=profile,key=value,..." entry.
static void add_device(const char *spec, size_t len) {
    if (vcam_ndevices >= VCAM_MAX_DEVICES) return;
    while (len && isspace((unsigned char)*spec)) spec++, len--;
    while (len && isspace((unsigned char)spec[len - 1])) len--;
    if (!len) return;
    struct vcam_device *dev = &vcam_devices[vcam_ndevices];
    memset(dev, 0, sizeof *dev);
    dev->index = vcam_ndevices;
    const char *eq = memchr(spec, '=', len);
    size_t plen = eq ? (size_t)(eq - spec) : len;
    if (plen >= sizeof dev->path || plen == 0 || spec[0] != '/') {
        fprintf(stderr, "vcam: ignoring device '%.*s' (expected /dev/videoN=profile)\n", (int)len, spec);
        return;
    }
    memcpy(dev->path, spec, plen);
    const char *base = strrchr(dev->path, '/') + 1;
    snprintf(dev->name, sizeof dev->name, "%s", base);
    const char *digits = base + strlen(base);
    while (digits > base && isdigit((unsigned char)digits[-1])) digits--;
    dev->minor = *digits ? atoi(digits) : 100 + dev->index;
    for (int i = 0; i < vcam_ndevices; i++)
        if (vcam_devices[i].minor == dev->minor) dev->minor = 100 + dev->index;

    const char *rest = eq ? eq + 1 : spec + len;
    size_t rlen = (size_t)(spec + len - rest);
    const char *comma = memchr(rest, ',', rlen);
    size_t proflen = comma ? (size_t)(comma - rest) : rlen;
    enum vcam_profile profile = VCAM_PROFILE_UVC;
    if (proflen == 6 && !strncmp(rest, "sensor", 6)) profile = VCAM_PROFILE_SENSOR;
    else if (proflen == 5 && !strncmp(rest, "basic", 5)) profile = VCAM_PROFILE_BASIC;
    else if (proflen == 6 && !strncmp(rest, "webcam", 6)) profile = VCAM_PROFILE_WEBCAM;
    else if (proflen == 5 && !strncmp(rest, "vivid", 5)) profile = VCAM_PROFILE_VIVID;
    else if (proflen && !(proflen == 3 && !strncmp(rest, "uvc", 3)))
        fprintf(stderr, "vcam: unknown profile '%.*s' for %s, using uvc\n", (int)proflen, rest, dev->path);
    set_defaults(dev, profile);
    memcpy(dev->rgb, default_colours[dev->index], 3);
    bool size_option = false;
    while (comma) {
        const char *opt = comma + 1;
        size_t left = (size_t)(spec + len - opt);
        comma = memchr(opt, ',', left);
        apply_option(dev, opt, comma ? (size_t)(comma - opt) : left, &size_option);
    }
    build_mode_table(dev, size_option);
    pthread_mutex_init(&dev->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&dev->cond, &ca);
    dev->prio_count[V4L2_PRIORITY_DEFAULT] = 0;
    dev->interval = dev->default_interval;
    vcam_fill_format(dev, &dev->fmt, dev->formats[0], dev->default_size.width, dev->default_size.height);
    vcam_controls_setup(dev);
    vcam_ndevices++;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_devices(void) {
    const char *spec = getenv("VCAM_DEVICES");
    if (!spec) spec = "/dev/video0=uvc";
    const char *p = spec;
    while (*p) {
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        add_device(p, len);
        p += len;
        if (*p) p++;
    }
    for (int i = 0; i < vcam_ndevices; i++) vcam_state_locate(&vcam_devices[i]);
}

void vcam_init(void) { pthread_once(&init_once, init_devices); }

struct vcam_device *vcam_device_for_path(const char *path) {
    if (!path || path[0] != '/' || path[1] != 'd') return NULL;   // fast reject: every virtual path is under /dev
    vcam_init();
    for (int i = 0; i < vcam_ndevices; i++)
        if (!strcmp(vcam_devices[i].path, path)) return &vcam_devices[i];
    // Also accept "/dev//video0" and "/dev/./video0" spellings.
    char norm[64];
    size_t n = 0;
    for (const char *s = path; *s && n + 1 < sizeof norm; s++) {
        if (*s == '/' && n && norm[n - 1] == '/') continue;
        if (*s == '.' && s[1] == '/' && n && norm[n - 1] == '/') { s++; continue; }
        norm[n++] = *s;
    }
    norm[n] = 0;
    for (int i = 0; i < vcam_ndevices; i++)
        if (!strcmp(vcam_devices[i].path, norm)) return &vcam_devices[i];
    return NULL;
}

struct vcam_device *vcam_device_for_rdev(dev_t rdev) {
    vcam_init();
    for (int i = 0; i < vcam_ndevices; i++)
        if (rdev == makedev(VCAM_VIDEO_MAJOR, vcam_devices[i].minor)) return &vcam_devices[i];
    return NULL;
}
