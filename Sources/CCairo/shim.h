// cairo and Pango for the camera screen's drawings (the control bar, the status line, the error view): made into
// pixels once per change, then blended into frames by the screen (Screen/Drawing+Cairo.swift).
#ifndef GSTCAM_CCAIRO_SHIM_H
#define GSTCAM_CCAIRO_SHIM_H

#include <cairo/cairo.h>

#include <dlfcn.h>
#include <pthread.h>

// Pango's types, opaque, and the few functions the drawings call, declared here: Pango's own headers need include
// paths only pkg-config knows, and a pkg-config module would link the library (see below).
typedef struct _PangoFontMap PangoFontMap;
typedef struct _PangoContext PangoContext;
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoFontDescription PangoFontDescription;
typedef struct { int x, y, width, height; } gstcam_pango_rectangle;

// The cairo and Pango functions the drawings need (never null once `loaded` is 1), looked up when the window first draws: gstcam does not link
// them, which would load cairo, Pango, HarfBuzz, fontconfig, FreeType and pixman into every command (a cold photo
// too, issue 13). By then the window's textoverlay has loaded them anyway.
struct gstcam_cairo_library {
    __typeof__(cairo_image_surface_create) *_Nonnull image_surface_create;
    __typeof__(cairo_image_surface_create_for_data) *_Nonnull image_surface_create_for_data;
    __typeof__(cairo_image_surface_get_data) *_Nonnull image_surface_get_data;
    __typeof__(cairo_image_surface_get_stride) *_Nonnull image_surface_get_stride;
    __typeof__(cairo_surface_flush) *_Nonnull surface_flush;
    __typeof__(cairo_surface_destroy) *_Nonnull surface_destroy;
    __typeof__(cairo_create) *_Nonnull create;
    __typeof__(cairo_destroy) *_Nonnull destroy;
    __typeof__(cairo_status) *_Nonnull status;
    __typeof__(cairo_save) *_Nonnull save;
    __typeof__(cairo_restore) *_Nonnull restore;
    __typeof__(cairo_translate) *_Nonnull translate;
    __typeof__(cairo_scale) *_Nonnull scale;
    __typeof__(cairo_set_source_rgba) *_Nonnull set_source_rgba;
    __typeof__(cairo_set_source_surface) *_Nonnull set_source_surface;
    __typeof__(cairo_set_line_width) *_Nonnull set_line_width;
    __typeof__(cairo_set_line_join) *_Nonnull set_line_join;
    __typeof__(cairo_new_path) *_Nonnull new_path;
    __typeof__(cairo_new_sub_path) *_Nonnull new_sub_path;
    __typeof__(cairo_move_to) *_Nonnull move_to;
    __typeof__(cairo_line_to) *_Nonnull line_to;
    __typeof__(cairo_arc) *_Nonnull arc;
    __typeof__(cairo_close_path) *_Nonnull close_path;
    __typeof__(cairo_rectangle) *_Nonnull rectangle;
    __typeof__(cairo_fill) *_Nonnull fill;
    __typeof__(cairo_fill_preserve) *_Nonnull fill_preserve;
    __typeof__(cairo_stroke) *_Nonnull stroke;
    __typeof__(cairo_clip) *_Nonnull clip;
    __typeof__(cairo_path_extents) *_Nonnull path_extents;
    __typeof__(cairo_paint) *_Nonnull paint;
    __typeof__(cairo_push_group) *_Nonnull push_group;
    __typeof__(cairo_pop_group_to_source) *_Nonnull pop_group_to_source;
    __typeof__(cairo_paint_with_alpha) *_Nonnull paint_with_alpha;
    PangoFontMap *(*_Nonnull pango_cairo_font_map_new)(void);
    PangoContext *(*_Nonnull pango_font_map_create_context)(PangoFontMap *);
    void (*_Nonnull pango_cairo_update_context)(cairo_t *, PangoContext *);
    PangoLayout *(*_Nonnull pango_layout_new)(PangoContext *);
    void (*_Nonnull pango_layout_set_markup)(PangoLayout *, const char *, int);
    PangoFontDescription *(*_Nonnull pango_font_description_from_string)(const char *);
    void (*_Nonnull pango_font_description_set_absolute_size)(PangoFontDescription *, double);
    void (*_Nonnull pango_font_description_free)(PangoFontDescription *);
    void (*_Nonnull pango_layout_set_font_description)(PangoLayout *, const PangoFontDescription *);
    void (*_Nonnull pango_layout_get_pixel_extents)(PangoLayout *, gstcam_pango_rectangle *, gstcam_pango_rectangle *);
    int (*_Nonnull pango_layout_get_baseline)(PangoLayout *);
    void (*_Nonnull pango_cairo_show_layout)(cairo_t *, PangoLayout *);
    void (*_Nonnull g_object_unref)(void *);
    int loaded;
};

// Opens libpangocairo-1.0.so.0 (Debian's libpangocairo-1.0-0, which brings cairo and Pango) once and looks up every
// function; `loaded` is 0 when any is missing. The state is local to this function: Swift emits inline functions,
// not a header's global variables.
static inline const struct gstcam_cairo_library *gstcam_cairo_library(void) {
    static struct gstcam_cairo_library c;
    static int tried;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    if (!tried) {
        tried = 1;
        void *library = dlopen("libpangocairo-1.0.so.0", RTLD_NOW | RTLD_LOCAL);
#define GSTCAM_CAIRO_FIND(field) (c.field = (__typeof__(c.field))dlsym(library, "cairo_" #field))
#define GSTCAM_PANGO_FIND(field) (c.field = (__typeof__(c.field))dlsym(library, #field))
        c.loaded = library && GSTCAM_CAIRO_FIND(image_surface_create) && GSTCAM_CAIRO_FIND(image_surface_create_for_data)
            && GSTCAM_CAIRO_FIND(image_surface_get_data) && GSTCAM_CAIRO_FIND(image_surface_get_stride)
            && GSTCAM_CAIRO_FIND(surface_flush) && GSTCAM_CAIRO_FIND(surface_destroy) && GSTCAM_CAIRO_FIND(create)
            && GSTCAM_CAIRO_FIND(destroy) && GSTCAM_CAIRO_FIND(status) && GSTCAM_CAIRO_FIND(save)
            && GSTCAM_CAIRO_FIND(restore) && GSTCAM_CAIRO_FIND(translate) && GSTCAM_CAIRO_FIND(scale)
            && GSTCAM_CAIRO_FIND(set_source_rgba) && GSTCAM_CAIRO_FIND(set_source_surface)
            && GSTCAM_CAIRO_FIND(set_line_width) && GSTCAM_CAIRO_FIND(set_line_join) && GSTCAM_CAIRO_FIND(new_path)
            && GSTCAM_CAIRO_FIND(new_sub_path) && GSTCAM_CAIRO_FIND(move_to) && GSTCAM_CAIRO_FIND(line_to)
            && GSTCAM_CAIRO_FIND(arc) && GSTCAM_CAIRO_FIND(close_path) && GSTCAM_CAIRO_FIND(rectangle)
            && GSTCAM_CAIRO_FIND(fill) && GSTCAM_CAIRO_FIND(fill_preserve) && GSTCAM_CAIRO_FIND(stroke)
            && GSTCAM_CAIRO_FIND(clip) && GSTCAM_CAIRO_FIND(path_extents) && GSTCAM_CAIRO_FIND(paint) && GSTCAM_CAIRO_FIND(push_group)
            && GSTCAM_CAIRO_FIND(pop_group_to_source) && GSTCAM_CAIRO_FIND(paint_with_alpha)
            && GSTCAM_PANGO_FIND(pango_cairo_font_map_new) && GSTCAM_PANGO_FIND(pango_font_map_create_context)
            && GSTCAM_PANGO_FIND(pango_cairo_update_context) && GSTCAM_PANGO_FIND(pango_layout_new)
            && GSTCAM_PANGO_FIND(pango_layout_set_markup) && GSTCAM_PANGO_FIND(pango_font_description_from_string)
            && GSTCAM_PANGO_FIND(pango_font_description_set_absolute_size)
            && GSTCAM_PANGO_FIND(pango_font_description_free) && GSTCAM_PANGO_FIND(pango_layout_set_font_description)
            && GSTCAM_PANGO_FIND(pango_layout_get_pixel_extents) && GSTCAM_PANGO_FIND(pango_layout_get_baseline)
            && GSTCAM_PANGO_FIND(pango_cairo_show_layout) && GSTCAM_PANGO_FIND(g_object_unref);
#undef GSTCAM_CAIRO_FIND
#undef GSTCAM_PANGO_FIND
    }
    pthread_mutex_unlock(&lock);
    return &c;
}

#endif
