// Frame content (docs/virtual-camera.md, "What a frame shows"):
//   rows [0, band)            identity band: the device's colour, untouched by any control
//   rows [band, H-16)         scene: a grey checkerboard seen through the lens (zoom magnifies, an
//                             unfocused lens blurs, brightness/contrast/exposure/torch/strobe change
//                             its luma) plus a white square that moves every frame
//   rows [H-16, H)            sequence stamp: 32 blocks of width W/32, most significant bit first,
//                             white = 1, black = 0, holding the buffer's sequence number
// band = H/6 rounded down to even. The static part is rendered once per control state and copied;
// per frame only the square and the stamp are drawn, so 1080p30 costs one copy per frame (for YUYV and
// NV12 one the kernel makes between files: see "through files" below).
#include "vcam.h"

#include <stdio.h>

#include <jpeglib.h>
#include <math.h>
#include <setjmp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct render_key {
    uint32_t fourcc, width, height;
    int32_t zoom, blur, brightness, contrast, exposure_gain_pct, torch;
    uint8_t rgb[3];
};

struct vcam_renderer {
    struct render_key key;
    bool valid;
    uint8_t *planar;       // Y plane then U and V planes (4:2:0)
    uint8_t *work;         // this frame's planar copy (MJPG and the converted formats)
    // YUYV and NV12 (vcam_render_to_file): the static frame in the target layout, in a file of its own that the
    // process never maps.
    int base_fd;
    struct render_key base_key;
    bool base_valid;
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr jerr;
    jmp_buf jump;
    bool jpeg_ready;
};

struct vcam_renderer *vcam_renderer_new(void) {
    struct vcam_renderer *r = calloc(1, sizeof(struct vcam_renderer));
    if (r) r->base_fd = -1;
    return r;
}

void vcam_renderer_free(struct vcam_renderer *r) {
    if (!r) return;
    if (r->jpeg_ready) jpeg_destroy_compress(&r->cinfo);
    if (r->base_fd >= 0) vcam_real_close(r->base_fd);
    free(r->planar);
    free(r->work);
    free(r);
}

static uint32_t band_rows(uint32_t h) { return h / 6 & ~1u; }

static uint8_t clamp_u8(double v) { return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)(v + 0.5); }

// BT.601; limited range for YUYV/NV12, full range (JFIF) for MJPG.
static void rgb_to_yuv(const uint8_t rgb[3], bool full, uint8_t *y, uint8_t *u, uint8_t *v) {
    double r = rgb[0], g = rgb[1], b = rgb[2];
    if (full) {
        *y = clamp_u8(0.299 * r + 0.587 * g + 0.114 * b);
        *u = clamp_u8(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
        *v = clamp_u8(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    } else {
        *y = clamp_u8(16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255);
        *u = clamp_u8(128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255);
        *v = clamp_u8(128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255);
    }
}

static void current_key(struct vcam_device *dev, const struct v4l2_pix_format *fmt, struct render_key *k) {
    memset(k, 0, sizeof *k);
    k->fourcc = fmt->pixelformat;
    k->width = fmt->width;
    k->height = fmt->height;
    k->zoom = (int32_t)vcam_control_value(dev, V4L2_CID_ZOOM_ABSOLUTE, 100);
    bool autofocus = vcam_control_value(dev, V4L2_CID_FOCUS_AUTO, 1) != 0;
    int32_t focus = (int32_t)vcam_control_value(dev, V4L2_CID_FOCUS_ABSOLUTE, 100);
    int32_t off = focus > 100 ? focus - 100 : 100 - focus;
    k->blur = autofocus ? 0 : (int32_t)((uint32_t)off * fmt->width / 640 / 8);
    k->brightness = (int32_t)vcam_control_value(dev, V4L2_CID_BRIGHTNESS, 0);
    k->contrast = (int32_t)vcam_control_value(dev, V4L2_CID_CONTRAST, 32);
    k->exposure_gain_pct = 100;
    if (vcam_control_value(dev, V4L2_CID_EXPOSURE_AUTO, V4L2_EXPOSURE_APERTURE_PRIORITY) == V4L2_EXPOSURE_MANUAL) {
        int64_t e = vcam_control_value(dev, V4L2_CID_EXPOSURE_ABSOLUTE, 166);
        k->exposure_gain_pct = (int32_t)(e * 100 / 166);
        if (k->exposure_gain_pct < 10) k->exposure_gain_pct = 10;
        if (k->exposure_gain_pct > 400) k->exposure_gain_pct = 400;
    }
    if (vcam_control_value(dev, V4L2_CID_FLASH_LED_MODE, 0) == V4L2_FLASH_LED_MODE_TORCH)
        k->torch = (int32_t)vcam_control_value(dev, V4L2_CID_FLASH_TORCH_INTENSITY, 0);
    memcpy(k->rgb, dev->rgb, 3);
}

static void build_lut(const struct render_key *k, bool full, uint8_t lut[256]) {
    double lo = full ? 0 : 16, hi = full ? 255 : 235;
    for (int y = 0; y < 256; y++) {
        double v = 128 + (y - 128) * (k->contrast / 32.0);
        v = lo + (v - lo) * (k->exposure_gain_pct / 100.0);
        v += k->brightness * 1.5 + k->torch * 0.8;
        lut[y] = clamp_u8(v < lo ? lo : v > hi ? hi : v);
    }
}

// Box blur of one plane region, horizontally then vertically (running sums).
static void box_blur(uint8_t *p, uint32_t stride, uint32_t w, uint32_t h, int radius) {
    if (radius <= 0) return;
    uint32_t n = w > h ? w : h;
    uint8_t *line = malloc(n);
    if (!line) return;
    int win = 2 * radius + 1;
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *row = p + (size_t)y * stride;
        memcpy(line, row, w);
        int sum = 0;
        for (int i = -radius; i <= radius; i++) sum += line[i < 0 ? 0 : (uint32_t)i >= w ? w - 1 : (uint32_t)i];
        for (uint32_t x = 0; x < w; x++) {
            row[x] = (uint8_t)(sum / win);
            int add = (int)x + radius + 1, sub = (int)x - radius;
            sum += line[(uint32_t)add >= w ? w - 1 : (uint32_t)add] - line[sub < 0 ? 0 : sub];
        }
    }
    for (uint32_t x = 0; x < w; x++) {
        for (uint32_t y = 0; y < h; y++) line[y] = p[(size_t)y * stride + x];
        int sum = 0;
        for (int i = -radius; i <= radius; i++) sum += line[i < 0 ? 0 : (uint32_t)i >= h ? h - 1 : (uint32_t)i];
        for (uint32_t y = 0; y < h; y++) {
            p[(size_t)y * stride + x] = (uint8_t)(sum / win);
            int add = (int)y + radius + 1, sub = (int)y - radius;
            sum += line[(uint32_t)add >= h ? h - 1 : (uint32_t)add] - line[sub < 0 ? 0 : sub];
        }
    }
    free(line);
}

// What the static frame (band + scene + blank stamp rows) looks like for one control state, row by row.
struct scene {
    uint32_t w, h, band, scene_top, scene_h;
    uint8_t band_y, band_u, band_v, light, dark, stamp_black;
    double cell, cy;
    uint8_t *column_odd;   // the checkerboard's column parity, w entries: each row is then a table lookup
    uint8_t lut[256];      // brightness, contrast, exposure and torch applied to the scene's luma
};

static bool scene_init(struct scene *sc, const struct render_key *k, bool full) {
    uint32_t w = k->width, h = k->height;
    *sc = (struct scene){.w = w, .h = h, .band = band_rows(h), .light = full ? 190 : 180, .dark = full ? 60 : 70,
                         .stamp_black = full ? 0 : 16};
    sc->scene_top = sc->band;
    sc->scene_h = h - sc->band - VCAM_STAMP_ROWS;
    rgb_to_yuv(k->rgb, full, &sc->band_y, &sc->band_u, &sc->band_v);
    sc->cell = w / 8.0 * (k->zoom / 100.0);
    sc->cy = sc->scene_top + sc->scene_h / 2.0;
    double cx = w / 2.0;
    sc->column_odd = malloc(w);
    if (!sc->column_odd) return false;
    for (uint32_t x = 0; x < w; x++) sc->column_odd[x] = (uint8_t)((long)floor((x + 0.5 - cx) / sc->cell) & 1);
    build_lut(k, full, sc->lut);
    return true;
}

static void scene_free(struct scene *sc) { free(sc->column_odd); }

static void scene_apply_lut(const struct scene *sc, uint8_t *row) {
    for (uint32_t x = 0; x < sc->w; x++) row[x] = sc->lut[row[x]];
}

static bool scene_has_row(const struct scene *sc, uint32_t y) { return y >= sc->scene_top && y < sc->scene_top + sc->scene_h; }

// Row y's luma before blur and the scene's table.
static void scene_luma_row(const struct scene *sc, uint32_t y, uint8_t *row) {
    if (y < sc->band) {
        memset(row, sc->band_y, sc->w);
    } else if (!scene_has_row(sc, y)) {
        memset(row, sc->stamp_black, sc->w);
    } else {
        uint8_t row_odd = (uint8_t)((long)floor((y + 0.5 - sc->cy) / sc->cell) & 1);
        for (uint32_t x = 0; x < sc->w; x++) row[x] = (sc->column_odd[x] ^ row_odd) ? sc->dark : sc->light;
    }
}

// Renders the static frame as planar 4:2:0 into r->planar.
static void render_planar(struct vcam_renderer *r, bool full) {
    struct scene sc;
    if (!scene_init(&sc, &r->key, full)) return;
    uint32_t w = sc.w, h = sc.h;
    uint8_t *yp = r->planar, *up = yp + (size_t)w * h, *vp = up + (size_t)w * h / 4;
    for (uint32_t y = 0; y < h; y++) scene_luma_row(&sc, y, yp + (size_t)y * w);
    memset(up, sc.band_u, (size_t)w / 2 * sc.band / 2);
    memset(vp, sc.band_v, (size_t)w / 2 * sc.band / 2);
    memset(up + (size_t)w / 2 * sc.band / 2, 128, (size_t)w / 2 * (h - sc.band) / 2);
    memset(vp + (size_t)w / 2 * sc.band / 2, 128, (size_t)w / 2 * (h - sc.band) / 2);
    box_blur(yp + (size_t)sc.scene_top * w, w, w, sc.scene_h, r->key.blur);
    for (uint32_t y = sc.scene_top; y < sc.scene_top + sc.scene_h; y++) scene_apply_lut(&sc, yp + (size_t)y * w);
    scene_free(&sc);
}

static bool ensure_base(struct vcam_renderer *r, struct vcam_device *dev, const struct v4l2_pix_format *fmt) {
    struct render_key k;
    current_key(dev, fmt, &k);
    if (r->valid && !memcmp(&k, &r->key, sizeof k)) return true;
    bool resized = !r->valid || k.width != r->key.width || k.height != r->key.height || k.fourcc != r->key.fourcc;
    r->key = k;
    size_t planar = (size_t)k.width * k.height * 3 / 2;
    if (resized) {
        free(r->planar);
        free(r->work);
        r->planar = malloc(planar);
        r->work = malloc(planar);
        if (!r->planar || !r->work) {
            r->valid = false;
            return false;
        }
    }
    bool full = vcam_format_is_full_range(k.fourcc);
    render_planar(r, full);
    r->valid = true;
    return true;
}

// The luma of one row in the frame's own layout: YUYV interleaves it with chroma, the planar layouts (NV12, and
// the 4:2:0 planar frame) start with a plane of it.
static size_t luma_row_bytes(uint32_t fourcc, uint32_t w) { return fourcc == V4L2_PIX_FMT_YUYV ? (size_t)w * 2 : w; }

// Sets luma in [x0,x1) of one row.
static void fill_row_luma(uint8_t *row, uint32_t fourcc, uint32_t x0, uint32_t x1, uint8_t value) {
    if (fourcc == V4L2_PIX_FMT_YUYV) {
        for (uint32_t x = x0; x < x1; x++) row[x * 2] = value;
    } else {
        memset(row + x0, value, x1 - x0);
    }
}

static void remap_row_luma(uint8_t *row, uint32_t fourcc, uint32_t w, const uint8_t lut[256]) {
    size_t step = fourcc == V4L2_PIX_FMT_YUYV ? 2 : 1;
    for (uint32_t x = 0; x < w; x++) row[x * step] = lut[row[x * step]];
}

// Where this frame's moving square and sequence stamp are.
struct overlays {
    uint32_t square_x0, square_y0, side;   // the square, side × side
    uint32_t stamp_y0, bit_width;          // the stamp's rows [stamp_y0, h), one block of bit_width per bit
    uint32_t sequence;
    uint8_t white, black;
};

static struct overlays overlays_for(uint32_t w, uint32_t h, uint32_t sequence, bool full) {
    uint32_t band = band_rows(h), scene_h = h - band - VCAM_STAMP_ROWS;
    uint32_t side = (scene_h / 4) & ~1u;
    uint32_t travel = w - side;
    uint32_t step = (w / 64) & ~1u;
    return (struct overlays){
        .square_x0 = travel ? (sequence * step) % travel & ~1u : 0,
        .square_y0 = (band + scene_h / 2 - side / 2) & ~1u,
        .side = side,
        .stamp_y0 = h - VCAM_STAMP_ROWS,
        .bit_width = w / VCAM_STAMP_BITS,
        .sequence = sequence,
        .white = full ? 255 : 235,
        .black = full ? 0 : 16,
    };
}

static bool row_has_overlay(const struct overlays *o, uint32_t y) {
    return (y >= o->square_y0 && y < o->square_y0 + o->side) || y >= o->stamp_y0;
}

// The square's and the stamp's part of row y.
static void draw_row_overlays(uint8_t *row, uint32_t fourcc, uint32_t y, const struct overlays *o) {
    if (y >= o->square_y0 && y < o->square_y0 + o->side)
        fill_row_luma(row, fourcc, o->square_x0, o->square_x0 + o->side, o->white);
    if (y >= o->stamp_y0) {
        for (uint32_t i = 0; i < VCAM_STAMP_BITS; i++) {
            bool one = (o->sequence >> (VCAM_STAMP_BITS - 1 - i)) & 1;
            fill_row_luma(row, fourcc, i * o->bit_width, (i + 1) * o->bit_width, one ? o->white : o->black);
        }
    }
}

static void remap_scene_luma(uint8_t *frame, uint32_t fourcc, uint32_t w, uint32_t h, const uint8_t lut[256]) {
    for (uint32_t y = band_rows(h); y < h - VCAM_STAMP_ROWS; y++)
        remap_row_luma(frame + y * luma_row_bytes(fourcc, w), fourcc, w, lut);
}

// The moving square and the sequence stamp.
static void draw_overlays(uint8_t *frame, uint32_t fourcc, uint32_t w, uint32_t h, uint32_t sequence, bool full) {
    struct overlays o = overlays_for(w, h, sequence, full);
    for (uint32_t y = o.square_y0; y < h; y++)
        if (row_has_overlay(&o, y)) draw_row_overlays(frame + y * luma_row_bytes(fourcc, w), fourcc, y, &o);
}

// ---- formats converted per frame from the planar frame (UYVY, GREY, RGB3, BGR3, BA81) -------------

static uint8_t clamp_int(int v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

// Full-range BT.601 (JFIF) YUV to RGB, in 16.16 fixed point.
static void yuv_to_rgb(int y, int u, int v, uint8_t out[3]) {
    u -= 128;
    v -= 128;
    out[0] = clamp_int(y + ((91881 * v) >> 16));
    out[1] = clamp_int(y - ((22554 * u + 46802 * v) >> 16));
    out[2] = clamp_int(y + ((116130 * u) >> 16));
}

static void convert(const uint8_t *planar, uint32_t fourcc, uint32_t w, uint32_t h, uint8_t *dst) {
    const uint8_t *yp = planar, *up = yp + (size_t)w * h, *vp = up + (size_t)w * h / 4;
    if (fourcc == V4L2_PIX_FMT_GREY) {
        memcpy(dst, yp, (size_t)w * h);
        return;
    }
    for (uint32_t y = 0; y < h; y++) {
        const uint8_t *yr = yp + (size_t)y * w, *ur = up + (size_t)(y / 2) * (w / 2), *vr = vp + (size_t)(y / 2) * (w / 2);
        if (fourcc == V4L2_PIX_FMT_UYVY) {
            uint8_t *o = dst + (size_t)y * w * 2;
            for (uint32_t x = 0; x < w; x += 2) {
                *o++ = ur[x / 2];
                *o++ = yr[x];
                *o++ = vr[x / 2];
                *o++ = yr[x + 1];
            }
            continue;
        }
        for (uint32_t x = 0; x < w; x++) {
            uint8_t rgb[3];
            yuv_to_rgb(yr[x], ur[x / 2], vr[x / 2], rgb);
            if (fourcc == V4L2_PIX_FMT_RGB24) {
                memcpy(dst + ((size_t)y * w + x) * 3, rgb, 3);
            } else if (fourcc == V4L2_PIX_FMT_BGR24) {
                uint8_t *o = dst + ((size_t)y * w + x) * 3;
                o[0] = rgb[2], o[1] = rgb[1], o[2] = rgb[0];
            } else {   // SBGGR8: even rows B G B G …, odd rows G R G R …
                int channel = (y & 1) ? ((x & 1) ? 0 : 1) : ((x & 1) ? 1 : 2);
                dst[(size_t)y * w + x] = rgb[channel];
            }
        }
    }
}

// ---- MJPG ---------------------------------------------------------------------------------------

struct fixed_dest {
    struct jpeg_destination_mgr pub;
    uint8_t *start;
    size_t capacity;
    bool overflow;
    uint8_t spill[4096];
};

static void dest_init(j_compress_ptr c) { (void)c; }
static boolean dest_empty(j_compress_ptr c) {
    // Out of room: keep writing into a scratch area; the frame is marked as truncated.
    struct fixed_dest *d = (struct fixed_dest *)c->dest;
    d->overflow = true;
    d->pub.next_output_byte = d->spill;
    d->pub.free_in_buffer = sizeof d->spill;
    return TRUE;
}
static void dest_term(j_compress_ptr c) { (void)c; }

static void jpeg_error_exit(j_common_ptr c) {
    struct vcam_renderer *r = (struct vcam_renderer *)c->client_data;
    longjmp(r->jump, 1);
}

static uint32_t encode_jpeg(struct vcam_renderer *r, uint32_t w, uint32_t h, uint8_t *dst, uint32_t capacity) {
    if (!r->jpeg_ready) {
        r->cinfo.err = jpeg_std_error(&r->jerr);
        r->jerr.error_exit = jpeg_error_exit;
        jpeg_create_compress(&r->cinfo);
        r->cinfo.client_data = r;
        r->jpeg_ready = true;
    }
    struct fixed_dest dest = {.pub = {.init_destination = dest_init, .empty_output_buffer = dest_empty,
                                      .term_destination = dest_term},
                              .start = dst, .capacity = capacity};
    dest.pub.next_output_byte = dst;
    dest.pub.free_in_buffer = capacity;
    struct jpeg_compress_struct *c = &r->cinfo;
    if (setjmp(r->jump)) {
        jpeg_abort_compress(c);
        return 0;
    }
    c->dest = &dest.pub;
    c->image_width = w;
    c->image_height = h;
    c->input_components = 3;
    c->in_color_space = JCS_YCbCr;
    jpeg_set_defaults(c);
    jpeg_set_quality(c, 85, TRUE);
    c->raw_data_in = TRUE;
    c->dct_method = JDCT_IFAST;
    c->comp_info[0].h_samp_factor = 2;
    c->comp_info[0].v_samp_factor = 2;
    c->comp_info[1].h_samp_factor = c->comp_info[1].v_samp_factor = 1;
    c->comp_info[2].h_samp_factor = c->comp_info[2].v_samp_factor = 1;
    jpeg_start_compress(c, TRUE);
    uint8_t *yp = r->work, *up = yp + (size_t)w * h, *vp = up + (size_t)w * h / 4;
    JSAMPROW yrows[16], urows[8], vrows[8];
    JSAMPARRAY planes[3] = {yrows, urows, vrows};
    while (c->next_scanline < h) {
        for (int i = 0; i < 16; i++) {
            uint32_t y = c->next_scanline + (uint32_t)i;
            if (y >= h) y = h - 1;
            yrows[i] = yp + (size_t)y * w;
        }
        for (int i = 0; i < 8; i++) {
            uint32_t y = c->next_scanline / 2 + (uint32_t)i;
            if (y >= h / 2) y = h / 2 - 1;
            urows[i] = up + (size_t)y * (w / 2);
            vrows[i] = vp + (size_t)y * (w / 2);
        }
        jpeg_write_raw_data(c, planes, 16);
    }
    jpeg_finish_compress(c);
    if (dest.overflow) return capacity;
    return (uint32_t)(capacity - dest.pub.free_in_buffer);
}

// A strobe asked for (V4L2_CID_FLASH_STROBE) lights the next frame: true once per strobe.
static bool take_strobe(struct vcam_device *dev) {
    uint32_t pending = atomic_load(&dev->shared->strobe_pending);
    while (pending && !atomic_compare_exchange_weak(&dev->shared->strobe_pending, &pending, pending - 1)) {}
    return pending != 0;
}

static void fill_strobe_lut(uint8_t lut[256]) {
    for (int i = 0; i < 256; i++) lut[i] = (uint8_t)(i + 90 > 235 ? 235 : i + 90);
}

uint32_t vcam_render(struct vcam_renderer *r, struct vcam_device *dev, const struct v4l2_pix_format *fmt,
                     uint32_t sequence, uint8_t *dst, uint32_t capacity) {
    if (!ensure_base(r, dev, fmt)) return 0;
    uint32_t w = fmt->width, h = fmt->height;
    bool strobe = take_strobe(dev);
    uint8_t strobe_lut[256];
    if (strobe) fill_strobe_lut(strobe_lut);
    bool full = vcam_format_is_full_range(fmt->pixelformat);
    memcpy(r->work, r->planar, (size_t)w * h * 3 / 2);
    if (strobe) remap_scene_luma(r->work, V4L2_PIX_FMT_NV12, w, h, strobe_lut);
    draw_overlays(r->work, V4L2_PIX_FMT_NV12, w, h, sequence, full);
    if (fmt->pixelformat == V4L2_PIX_FMT_MJPEG) return encode_jpeg(r, w, h, dst, capacity);
    if (capacity < fmt->sizeimage) return 0;
    convert(r->work, fmt->pixelformat, w, h, dst);
    return fmt->sizeimage;
}

// ---- YUYV and NV12 through files --------------------------------------------------------------------------

// A kernel driver draws through the kernel's own mapping of a buffer and keeps its test pattern in kernel memory
// (vivid: vmalloc), none of it the process's. So for the raw packed formats, which are what most tests and the
// benchmark stream, the static frame lives in a file of its own and each frame is the kernel copying it into the
// buffer's file (copy_file_range), the square and the stamp written row by row: the process holds a few rows.

// All n bytes at `offset`: pread and pwrite may move part of them.
static bool transfer_all(int fd, bool writing, uint8_t *bytes, size_t n, off_t offset) {
    while (n) {
        ssize_t k = writing ? pwrite(fd, bytes, n, offset) : pread(fd, bytes, n, offset);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        bytes += k, n -= (size_t)k, offset += k;
    }
    return true;
}

static bool pwrite_all(int fd, const uint8_t *bytes, size_t n, off_t offset) {
    return transfer_all(fd, true, (uint8_t *)bytes, n, offset);
}

static bool pread_all(int fd, uint8_t *bytes, size_t n, off_t offset) { return transfer_all(fd, false, bytes, n, offset); }

// n bytes from the start of one file to the start of another; through `scratch` where the kernel cannot copy
// between them itself (copy_file_range before Linux 5.3 or across file systems).
static bool copy_file_start(int from, int to, size_t n, uint8_t *scratch, size_t scratch_size) {
    loff_t in = 0, out = 0;
    while (n) {
        ssize_t k = copy_file_range(from, &in, to, &out, n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        n -= (size_t)k;
    }
    while (n) {
        size_t part = n < scratch_size ? n : scratch_size;
        if (!pread_all(from, scratch, part, in) || !pwrite_all(to, scratch, part, out)) return false;
        in += (loff_t)part, out += (loff_t)part, n -= part;
    }
    return true;
}

// A frame's bytes in YUYV (4:2:2, packed) or NV12 (4:2:0).
static size_t packed_frame_size(uint32_t fourcc, uint32_t w, uint32_t h) {
    return fourcc == V4L2_PIX_FMT_YUYV ? (size_t)w * h * 2 : (size_t)w * h * 3 / 2;
}

// Row y of the static frame in the target layout, from its luma (the scene's table applied) and its chroma, which
// is one colour across a row: the band's above the scene, neutral below.
static bool write_packed_row(int fd, uint32_t fourcc, const struct scene *sc, uint32_t y, const uint8_t *luma,
                             uint8_t *out) {
    uint32_t w = sc->w;
    uint8_t u = y < sc->band ? sc->band_u : 128, v = y < sc->band ? sc->band_v : 128;
    if (fourcc == V4L2_PIX_FMT_YUYV) {
        for (uint32_t x = 0; x < w; x += 2) {
            out[x * 2] = luma[x];
            out[x * 2 + 1] = u;
            out[x * 2 + 2] = luma[x + 1];
            out[x * 2 + 3] = v;
        }
        return pwrite_all(fd, out, (size_t)w * 2, (off_t)y * w * 2);
    }
    if (!pwrite_all(fd, luma, w, (off_t)y * w)) return false;
    if (y % 2) return true;
    for (uint32_t x = 0; x < w; x += 2) out[x] = u, out[x + 1] = v;
    return pwrite_all(fd, out, w, (off_t)w * sc->h + (off_t)(y / 2) * w);
}

// The static frame into r->base_fd. Row by row; only an unfocused lens' blur, which mixes rows, needs the whole
// luma plane for the moment it is drawn.
static bool write_base_file(struct vcam_renderer *r, const struct render_key *k) {
    struct scene sc;
    if (!scene_init(&sc, k, false)) return false;
    uint32_t w = k->width, h = k->height;
    uint8_t *plane = NULL, *row = malloc(w), *out = malloc((size_t)w * 2);
    bool ok = row && out && ftruncate(r->base_fd, (off_t)packed_frame_size(k->fourcc, w, h)) == 0;
    if (ok && k->blur > 0) {
        plane = malloc((size_t)w * h);
        ok = plane != NULL;
        for (uint32_t y = 0; ok && y < h; y++) scene_luma_row(&sc, y, plane + (size_t)y * w);
        if (ok) box_blur(plane + (size_t)sc.scene_top * w, w, w, sc.scene_h, k->blur);
    }
    for (uint32_t y = 0; ok && y < h; y++) {
        if (plane) memcpy(row, plane + (size_t)y * w, w);
        else scene_luma_row(&sc, y, row);
        if (scene_has_row(&sc, y)) scene_apply_lut(&sc, row);
        ok = write_packed_row(r->base_fd, k->fourcc, &sc, y, row, out);
    }
    free(plane);
    free(row);
    free(out);
    scene_free(&sc);
    return ok;
}

int64_t vcam_render_to_file(struct vcam_renderer *r, struct vcam_device *dev, const struct v4l2_pix_format *fmt,
                            uint32_t sequence, int fd, uint32_t capacity) {
    uint32_t fourcc = fmt->pixelformat, w = fmt->width, h = fmt->height;
    if (fourcc != V4L2_PIX_FMT_YUYV && fourcc != V4L2_PIX_FMT_NV12) return -1;
    // Failures below lose the frame (bytesused 0), as vcam_render's do.
    size_t size = packed_frame_size(fourcc, w, h);
    struct render_key k;
    current_key(dev, fmt, &k);
    if (r->base_fd < 0) {
        r->base_fd = (int)syscall(SYS_memfd_create, "vcam-base", 1u /* MFD_CLOEXEC */);
        if (r->base_fd < 0) return 0;
    }
    if (!r->base_valid || memcmp(&k, &r->base_key, sizeof k)) {
        r->base_valid = write_base_file(r, &k);
        if (!r->base_valid) return 0;
        r->base_key = k;
    }
    size_t row_bytes = luma_row_bytes(fourcc, w);
    uint8_t *row = malloc(row_bytes);
    if (!row) return 0;
    if (capacity < size) {   // a buffer too small for the frame gets the part that fits
        bool copied = copy_file_start(r->base_fd, fd, capacity, row, row_bytes);
        free(row);
        return copied ? capacity : 0;
    }
    bool ok = copy_file_start(r->base_fd, fd, size, row, row_bytes);
    bool strobe = take_strobe(dev);
    uint8_t strobe_lut[256];
    if (strobe) fill_strobe_lut(strobe_lut);
    struct overlays o = overlays_for(w, h, sequence, false);
    uint32_t first = strobe ? band_rows(h) : o.square_y0;
    for (uint32_t y = first; ok && y < h; y++) {
        bool scene = y < h - VCAM_STAMP_ROWS;
        if (!row_has_overlay(&o, y) && !(strobe && scene)) continue;
        off_t offset = (off_t)y * (off_t)row_bytes;
        ok = pread_all(fd, row, row_bytes, offset);
        if (!ok) break;
        if (strobe && scene) remap_row_luma(row, fourcc, w, strobe_lut);
        draw_row_overlays(row, fourcc, y, &o);
        ok = pwrite_all(fd, row, row_bytes, offset);
    }
    free(row);
    return ok ? (int64_t)fmt->sizeimage : 0;
}
