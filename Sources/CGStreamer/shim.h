// The C surface GstCamera imports. Swift sees the GStreamer/GLib/V4L2 headers directly; the
// files included below add only what Swift cannot import (macros, variadic functions, casts).
#ifndef GSTCAM_CGSTREAMER_SHIM_H
#define GSTCAM_CGSTREAMER_SHIM_H

#include "gst_shim.h"
#include "v4l2_shim.h"

#endif
