// libzbar for the camera screen's scan highlight: GStreamer's zbar element reports a code's text but not where it
// is, so the grey frame the element read is scanned again here, once per new code, for the code's outline.
#ifndef GSTCAM_CZBAR_SHIM_H
#define GSTCAM_CZBAR_SHIM_H

#include <stdlib.h>
#include <string.h>
#include <zbar.h>

// Scans a grey picture (one byte a pixel, rows `stride` bytes apart) for the code whose text is `text`, and writes
// its outline's corners as x, y pairs in pixels into `points` (room for `max_points` pairs). Returns how many
// points were written: 0 when the code is not found (or memory ran out).
static inline int gstcam_zbar_outline(const unsigned char *grey, unsigned width, unsigned height, unsigned stride,
                                      const char *text, int *points, int max_points) {
    unsigned char *copy = malloc((size_t)width * height);
    if (!copy) return 0;
    for (unsigned row = 0; row < height; row++) memcpy(copy + (size_t)row * width, grey + (size_t)row * stride, width);
    zbar_image_scanner_t *scanner = zbar_image_scanner_create();
    zbar_image_t *image = zbar_image_create();
    zbar_image_set_format(image, zbar_fourcc('Y', '8', '0', '0'));
    zbar_image_set_size(image, width, height);
    zbar_image_set_data(image, copy, (unsigned long)width * height, zbar_image_free_data);
    int count = 0;
    if (scanner && zbar_scan_image(scanner, image) > 0) {
        for (const zbar_symbol_t *symbol = zbar_image_first_symbol(image); symbol; symbol = zbar_symbol_next(symbol)) {
            const char *data = zbar_symbol_get_data(symbol);
            if (!data || strcmp(data, text) != 0) continue;
            unsigned size = zbar_symbol_get_loc_size(symbol);
            for (unsigned i = 0; i < size && (int)i < max_points; i++) {
                points[2 * i] = zbar_symbol_get_loc_x(symbol, i);
                points[2 * i + 1] = zbar_symbol_get_loc_y(symbol, i);
                count++;
            }
            break;
        }
    }
    zbar_image_destroy(image);
    if (scanner) zbar_image_scanner_destroy(scanner);
    return count;
}

#endif
