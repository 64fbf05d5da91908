// libzbar for the camera screen's scan highlight: GStreamer's zbar element reports a code's text but not where it
// is, so the grey frame the element read is scanned again here, once per new code, for the code's outline.
#ifndef GSTCAM_CZBAR_SHIM_H
#define GSTCAM_CZBAR_SHIM_H

#include <stdlib.h>
#include <string.h>
#include <zbar.h>

#include <dlfcn.h>
#include <pthread.h>

// The libzbar functions the outline needs, looked up when the first code is outlined: gstcam does not link libzbar,
// which would load it and the dozen libraries it needs (X11, xcb, D-Bus, systemd, libv4l…) into every command, 1.3
// MiB and a millisecond of a cold photo (issue 13). By then GStreamer's zbar element has loaded it anyway.
struct gstcam_zbar_library {
    __typeof__(zbar_image_scanner_create) *image_scanner_create;
    __typeof__(zbar_image_scanner_destroy) *image_scanner_destroy;
    __typeof__(zbar_image_create) *image_create;
    __typeof__(zbar_image_destroy) *image_destroy;
    __typeof__(zbar_image_set_format) *image_set_format;
    __typeof__(zbar_image_set_size) *image_set_size;
    __typeof__(zbar_image_set_data) *image_set_data;
    __typeof__(zbar_image_free_data) *image_free_data;
    __typeof__(zbar_scan_image) *scan_image;
    __typeof__(zbar_image_first_symbol) *image_first_symbol;
    __typeof__(zbar_symbol_next) *symbol_next;
    __typeof__(zbar_symbol_get_data) *symbol_get_data;
    __typeof__(zbar_symbol_get_loc_size) *symbol_get_loc_size;
    __typeof__(zbar_symbol_get_loc_x) *symbol_get_loc_x;
    __typeof__(zbar_symbol_get_loc_y) *symbol_get_loc_y;
    int loaded;
};

// Opens libzbar.so.0 (Debian's libzbar0) once and looks up every function; `loaded` is 0 when any is missing. The
// state is local to this function: Swift emits inline functions, not a header's global variables.
static inline const struct gstcam_zbar_library *gstcam_zbar_library(void) {
    static struct gstcam_zbar_library z;
    static int tried;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    if (!tried) {
        tried = 1;
        void *library = dlopen("libzbar.so.0", RTLD_NOW | RTLD_LOCAL);
#define GSTCAM_ZBAR_FIND(field) (z.field = (__typeof__(z.field))dlsym(library, "zbar_" #field))
        z.loaded = library && GSTCAM_ZBAR_FIND(image_scanner_create) && GSTCAM_ZBAR_FIND(image_scanner_destroy)
            && GSTCAM_ZBAR_FIND(image_create) && GSTCAM_ZBAR_FIND(image_destroy) && GSTCAM_ZBAR_FIND(image_set_format)
            && GSTCAM_ZBAR_FIND(image_set_size) && GSTCAM_ZBAR_FIND(image_set_data) && GSTCAM_ZBAR_FIND(image_free_data)
            && GSTCAM_ZBAR_FIND(scan_image) && GSTCAM_ZBAR_FIND(image_first_symbol) && GSTCAM_ZBAR_FIND(symbol_next)
            && GSTCAM_ZBAR_FIND(symbol_get_data) && GSTCAM_ZBAR_FIND(symbol_get_loc_size)
            && GSTCAM_ZBAR_FIND(symbol_get_loc_x) && GSTCAM_ZBAR_FIND(symbol_get_loc_y);
#undef GSTCAM_ZBAR_FIND
    }
    pthread_mutex_unlock(&lock);
    return &z;
}

// Scans a grey picture (one byte a pixel, rows `stride` bytes apart) for the code whose text is `text`, and writes
// its outline's corners as x, y pairs in pixels into `points` (room for `max_points` pairs). Returns how many
// points were written: 0 when the code is not found (or memory ran out), -1 when libzbar cannot be loaded.
static inline int gstcam_zbar_outline(const unsigned char *grey, unsigned width, unsigned height, unsigned stride,
                                      const char *text, int *points, int max_points) {
    const struct gstcam_zbar_library *z = gstcam_zbar_library();
    if (!z->loaded) return -1;
    unsigned char *copy = malloc((size_t)width * height);
    if (!copy) return 0;
    for (unsigned row = 0; row < height; row++) memcpy(copy + (size_t)row * width, grey + (size_t)row * stride, width);
    zbar_image_scanner_t *scanner = z->image_scanner_create();
    zbar_image_t *image = z->image_create();
    z->image_set_format(image, zbar_fourcc('Y', '8', '0', '0'));
    z->image_set_size(image, width, height);
    z->image_set_data(image, copy, (unsigned long)width * height, z->image_free_data);
    int count = 0;
    if (scanner && z->scan_image(scanner, image) > 0) {
        for (const zbar_symbol_t *symbol = z->image_first_symbol(image); symbol; symbol = z->symbol_next(symbol)) {
            const char *data = z->symbol_get_data(symbol);
            if (!data || strcmp(data, text) != 0) continue;
            unsigned size = z->symbol_get_loc_size(symbol);
            for (unsigned i = 0; i < size && (int)i < max_points; i++) {
                points[2 * i] = z->symbol_get_loc_x(symbol, i);
                points[2 * i + 1] = z->symbol_get_loc_y(symbol, i);
                count++;
            }
            break;
        }
    }
    z->image_destroy(image);
    if (scanner) z->image_scanner_destroy(scanner);
    return count;
}

#endif
