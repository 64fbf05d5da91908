// Frame content (docs/virtual-camera.md, "What a frame shows"):
//   rows [0, band)            identity band: the device's colour, untouched by any control
//   rows [band, H-16)         scene: a grey checkerboard seen through the lens (zoom magnifies, an
//                             unfocused lens blurs, brightness/contrast/exposure/torch/strobe change
//                             its luma) plus a white square that moves every frame
//   rows [H-16, H)            sequence stamp: 32 blocks of width W/32, most significant bit first,
//                             white = 1, black = 0, holding the buffer's sequence number
// band = H/6 rounded down to even. The static part is rendered once per control state and copied;
// per frame only the square and the stamp are drawn, so 1080p30 costs one memcpy per frame.
#include "vcam.h"

#include <stdio.h>

#include <jpeglib.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct render_key {
    uint32_t fourcc, width, height;
    int32_t zoom, blur, brightness, contrast, exposure_gain_pct, torch;
    uint8_t rgb[3];
};

struct vcam_renderer {
    struct render_key key;
    bool valid;
    uint8_t *planar;       // Y plane then U and V planes (4:2:0)
    uint8_t *packed;       // the base frame in the target layout (YUYV / NV12)
    size_t packed_size;
    uint8_t *work;         // MJPG: this frame's planar copy
    uint8_t lut[256];
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr jerr;
    jmp_buf jump;
    bool jpeg_ready;
};

struct vcam_renderer *vcam_renderer_new(void) { return calloc(1, sizeof(struct vcam_renderer)); }

void vcam_renderer_free(struct vcam_renderer *r) {
    if (!r) return;
    if (r->jpeg_ready) jpeg_destroy_compress(&r->cinfo);
    free(r->planar);
    free(r->packed);
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

static void build_lut(struct vcam_renderer *r, bool full) {
    const struct render_key *k = &r->key;
    double lo = full ? 0 : 16, hi = full ? 255 : 235;
    for (int y = 0; y < 256; y++) {
        double v = 128 + (y - 128) * (k->contrast / 32.0);
        v = lo + (v - lo) * (k->exposure_gain_pct / 100.0);
        v += k->brightness * 1.5 + k->torch * 0.8;
        r->lut[y] = clamp_u8(v < lo ? lo : v > hi ? hi : v);
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

// Renders the static frame (band + scene + blank stamp row) as planar 4:2:0.
static void render_planar(struct vcam_renderer *r, bool full) {
    const struct render_key *k = &r->key;
    uint32_t w = k->width, h = k->height, band = band_rows(h);
    uint8_t *yp = r->planar, *up = yp + (size_t)w * h, *vp = up + (size_t)w * h / 4;
    uint8_t by, bu, bv;
    rgb_to_yuv(k->rgb, full, &by, &bu, &bv);
    memset(yp, by, (size_t)w * band);
    memset(up, bu, (size_t)w / 2 * band / 2);
    memset(vp, bv, (size_t)w / 2 * band / 2);
    memset(up + (size_t)w / 2 * band / 2, 128, (size_t)w / 2 * (h - band) / 2);
    memset(vp + (size_t)w / 2 * band / 2, 128, (size_t)w / 2 * (h - band) / 2);
    uint32_t scene_top = band, scene_h = h - band - VCAM_STAMP_ROWS;
    double cell = w / 8.0 * (k->zoom / 100.0);
    double cx = w / 2.0, cy = scene_top + scene_h / 2.0;
    uint8_t light = full ? 190 : 180, dark = full ? 60 : 70;
    // Column parity once, so each row is a table lookup (this runs on every control change).
    uint8_t *column_odd = malloc(w);
    if (!column_odd) return;
    for (uint32_t x = 0; x < w; x++) column_odd[x] = (uint8_t)((long)floor((x + 0.5 - cx) / cell) & 1);
    for (uint32_t y = scene_top; y < scene_top + scene_h; y++) {
        uint8_t row_odd = (uint8_t)((long)floor((y + 0.5 - cy) / cell) & 1);
        uint8_t *row = yp + (size_t)y * w;
        for (uint32_t x = 0; x < w; x++) row[x] = (column_odd[x] ^ row_odd) ? dark : light;
    }
    free(column_odd);
    box_blur(yp + (size_t)scene_top * w, w, w, scene_h, k->blur);
    build_lut(r, full);
    for (uint32_t y = scene_top; y < scene_top + scene_h; y++) {
        uint8_t *row = yp + (size_t)y * w;
        for (uint32_t x = 0; x < w; x++) row[x] = r->lut[row[x]];
    }
    memset(yp + (size_t)(h - VCAM_STAMP_ROWS) * w, full ? 0 : 16, (size_t)w * VCAM_STAMP_ROWS);
}

static void pack(struct vcam_renderer *r) {
    uint32_t w = r->key.width, h = r->key.height;
    const uint8_t *yp = r->planar, *up = yp + (size_t)w * h, *vp = up + (size_t)w * h / 4;
    if (r->key.fourcc == V4L2_PIX_FMT_YUYV) {
        for (uint32_t y = 0; y < h; y++) {
            uint8_t *o = r->packed + (size_t)y * w * 2;
            const uint8_t *yr = yp + (size_t)y * w, *ur = up + (size_t)(y / 2) * (w / 2), *vr = vp + (size_t)(y / 2) * (w / 2);
            for (uint32_t x = 0; x < w; x += 2) {
                *o++ = yr[x];
                *o++ = ur[x / 2];
                *o++ = yr[x + 1];
                *o++ = vr[x / 2];
            }
        }
    } else if (r->key.fourcc == V4L2_PIX_FMT_NV12) {
        memcpy(r->packed, yp, (size_t)w * h);
        uint8_t *o = r->packed + (size_t)w * h;
        for (size_t i = 0; i < (size_t)w * h / 4; i++) {
            *o++ = up[i];
            *o++ = vp[i];
        }
    }
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
        free(r->packed);
        free(r->work);
        r->planar = malloc(planar);
        r->packed_size = k.fourcc == V4L2_PIX_FMT_YUYV ? (size_t)k.width * k.height * 2 : planar;
        r->packed = malloc(r->packed_size);
        r->work = malloc(planar);
        if (!r->planar || !r->packed || !r->work) {
            r->valid = false;
            return false;
        }
    }
    bool full = vcam_format_is_full_range(k.fourcc);
    render_planar(r, full);
    if (k.fourcc == V4L2_PIX_FMT_YUYV || k.fourcc == V4L2_PIX_FMT_NV12) pack(r);
    r->valid = true;
    return true;
}

// Sets luma in [x0,x1)×[y0,y1) of the frame in its own layout.
static void fill_luma(uint8_t *frame, uint32_t fourcc, uint32_t w, uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, uint8_t value) {
    for (uint32_t y = y0; y < y1; y++) {
        if (fourcc == V4L2_PIX_FMT_YUYV) {
            uint8_t *row = frame + (size_t)y * w * 2;
            for (uint32_t x = x0; x < x1; x++) row[x * 2] = value;
        } else {
            memset(frame + (size_t)y * w + x0, value, x1 - x0);
        }
    }
}

static void remap_scene_luma(uint8_t *frame, uint32_t fourcc, uint32_t w, uint32_t h, const uint8_t lut[256]) {
    uint32_t y0 = band_rows(h), y1 = h - VCAM_STAMP_ROWS;
    for (uint32_t y = y0; y < y1; y++) {
        if (fourcc == V4L2_PIX_FMT_YUYV) {
            uint8_t *row = frame + (size_t)y * w * 2;
            for (uint32_t x = 0; x < w; x++) row[x * 2] = lut[row[x * 2]];
        } else {
            uint8_t *row = frame + (size_t)y * w;
            for (uint32_t x = 0; x < w; x++) row[x] = lut[row[x]];
        }
    }
}

// The moving square and the sequence stamp.
static void draw_overlays(uint8_t *frame, uint32_t fourcc, uint32_t w, uint32_t h, uint32_t sequence, bool full) {
    uint32_t band = band_rows(h), scene_h = h - band - VCAM_STAMP_ROWS;
    uint32_t side = (scene_h / 4) & ~1u;
    uint32_t travel = w - side;
    uint32_t step = (w / 64) & ~1u;
    uint32_t x0 = travel ? (sequence * step) % travel & ~1u : 0;
    uint32_t y0 = (band + scene_h / 2 - side / 2) & ~1u;
    fill_luma(frame, fourcc, w, x0, x0 + side, y0, y0 + side, full ? 255 : 235);
    uint32_t bw = w / VCAM_STAMP_BITS;
    for (uint32_t i = 0; i < VCAM_STAMP_BITS; i++) {
        bool one = (sequence >> (VCAM_STAMP_BITS - 1 - i)) & 1;
        uint8_t v = one ? (full ? 255 : 235) : (full ? 0 : 16);
        fill_luma(frame, fourcc, w, i * bw, (i + 1) * bw, h - VCAM_STAMP_ROWS, h, v);
    }
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

uint32_t vcam_render(struct vcam_renderer *r, struct vcam_device *dev, const struct v4l2_pix_format *fmt,
                     uint32_t sequence, uint8_t *dst, uint32_t capacity) {
    if (!ensure_base(r, dev, fmt)) return 0;
    uint32_t w = fmt->width, h = fmt->height;
    bool strobe = false;
    uint32_t pending = atomic_load(&dev->shared->strobe_pending);
    while (pending && !atomic_compare_exchange_weak(&dev->shared->strobe_pending, &pending, pending - 1)) {}
    if (pending) strobe = true;
    uint8_t strobe_lut[256];
    if (strobe)
        for (int i = 0; i < 256; i++) strobe_lut[i] = (uint8_t)(i + 90 > 235 ? 235 : i + 90);
    if (fmt->pixelformat == V4L2_PIX_FMT_MJPEG || vcam_format_is_converted(fmt->pixelformat)) {
        bool full = vcam_format_is_full_range(fmt->pixelformat);
        memcpy(r->work, r->planar, (size_t)w * h * 3 / 2);
        if (strobe) remap_scene_luma(r->work, V4L2_PIX_FMT_NV12, w, h, strobe_lut);
        draw_overlays(r->work, V4L2_PIX_FMT_NV12, w, h, sequence, full);
        if (fmt->pixelformat == V4L2_PIX_FMT_MJPEG) return encode_jpeg(r, w, h, dst, capacity);
        if (capacity < fmt->sizeimage) return 0;
        convert(r->work, fmt->pixelformat, w, h, dst);
        return fmt->sizeimage;
    }
    size_t n = r->packed_size < capacity ? r->packed_size : capacity;
    memcpy(dst, r->packed, n);
    if (n < r->packed_size) return (uint32_t)n;
    if (strobe) remap_scene_luma(dst, fmt->pixelformat, w, h, strobe_lut);
    draw_overlays(dst, fmt->pixelformat, w, h, sequence, false);
    return (uint32_t)fmt->sizeimage;
}
