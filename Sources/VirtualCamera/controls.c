// Controls as the v4l2 control framework presents them: control classes, QUERY(_EXT)CTRL with the
// NEXT flags, QUERYMENU, G/S_CTRL, G/S/TRY_EXT_CTRLS with the error_idx rules, and control events.
// Values live in the device's shared state, so every process sees the same controls.
#include "vcam.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#define CLASS_FLAGS (V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY)

static const char *const exposure_menu[] = {NULL, "Manual Mode", NULL, "Aperture Priority Mode"};
static const char *const led_menu[] = {"Off", "Flash", "Torch"};

static const struct vcam_control user_class = {V4L2_CID_USER_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "User Controls", 0, 0, 0, 0, CLASS_FLAGS, NULL};
static const struct vcam_control brightness = {V4L2_CID_BRIGHTNESS, V4L2_CTRL_TYPE_INTEGER, "Brightness", -64, 64, 1, 0, V4L2_CTRL_FLAG_SLIDER, NULL};
static const struct vcam_control contrast = {V4L2_CID_CONTRAST, V4L2_CTRL_TYPE_INTEGER, "Contrast", 0, 95, 1, 32, V4L2_CTRL_FLAG_SLIDER, NULL};
static const struct vcam_control roi_rect = {VCAM_CID_UVC_REGION_OF_INTEREST_RECT, VCAM_CTRL_TYPE_RECT, "Region of Interest Rectangle", 0, 0, 0, 0, V4L2_CTRL_FLAG_HAS_PAYLOAD, NULL};
static const struct vcam_control roi_auto = {VCAM_CID_UVC_REGION_OF_INTEREST_AUTO, V4L2_CTRL_TYPE_BITMASK, "Region of Interest Auto Ctrls", 0, 0xff, 0, 0x01, 0, NULL};
static const struct vcam_control camera_class = {V4L2_CID_CAMERA_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "Camera Controls", 0, 0, 0, 0, CLASS_FLAGS, NULL};
static const struct vcam_control exposure_auto = {V4L2_CID_EXPOSURE_AUTO, V4L2_CTRL_TYPE_MENU, "Auto Exposure", 0, 3, 1, 3, 0, exposure_menu};
static const struct vcam_control exposure_abs = {V4L2_CID_EXPOSURE_ABSOLUTE, V4L2_CTRL_TYPE_INTEGER, "Exposure Time, Absolute", 3, 2047, 1, 166, 0, NULL};
static const struct vcam_control focus_abs = {V4L2_CID_FOCUS_ABSOLUTE, V4L2_CTRL_TYPE_INTEGER, "Focus, Absolute", 0, 255, 1, 100, 0, NULL};
static const struct vcam_control focus_auto = {V4L2_CID_FOCUS_AUTO, V4L2_CTRL_TYPE_BOOLEAN, "Focus, Automatic Continuous", 0, 1, 1, 1, 0, NULL};
static const struct vcam_control zoom_abs = {V4L2_CID_ZOOM_ABSOLUTE, V4L2_CTRL_TYPE_INTEGER, "Zoom, Absolute", 100, 500, 1, 100, 0, NULL};
static const struct vcam_control af_start = {V4L2_CID_AUTO_FOCUS_START, V4L2_CTRL_TYPE_BUTTON, "Auto Focus, Start", 0, 0, 0, 0, V4L2_CTRL_FLAG_WRITE_ONLY | V4L2_CTRL_FLAG_EXECUTE_ON_WRITE, NULL};
static const struct vcam_control af_stop = {V4L2_CID_AUTO_FOCUS_STOP, V4L2_CTRL_TYPE_BUTTON, "Auto Focus, Stop", 0, 0, 0, 0, V4L2_CTRL_FLAG_WRITE_ONLY | V4L2_CTRL_FLAG_EXECUTE_ON_WRITE, NULL};
static const struct vcam_control af_status = {V4L2_CID_AUTO_FOCUS_STATUS, V4L2_CTRL_TYPE_BITMASK, "Auto Focus, Status", 0, 7, 0, 0, V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_VOLATILE, NULL};
static const struct vcam_control flash_class = {V4L2_CID_FLASH_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "Flash Controls", 0, 0, 0, 0, CLASS_FLAGS, NULL};
static const struct vcam_control led_mode = {V4L2_CID_FLASH_LED_MODE, V4L2_CTRL_TYPE_MENU, "LED Mode", 0, 2, 1, 0, 0, led_menu};
static const struct vcam_control strobe = {V4L2_CID_FLASH_STROBE, V4L2_CTRL_TYPE_BUTTON, "Strobe", 0, 0, 0, 0, V4L2_CTRL_FLAG_WRITE_ONLY | V4L2_CTRL_FLAG_EXECUTE_ON_WRITE, NULL};
static const struct vcam_control torch = {V4L2_CID_FLASH_TORCH_INTENSITY, V4L2_CTRL_TYPE_INTEGER, "Torch Intensity", 0, 100, 1, 50, V4L2_CTRL_FLAG_SLIDER, NULL};

// vivid's test controls (vivid-ctrls.c): one of every control type, with vivid's ids, names and ranges.
#define VIVID_CID(n) (0x0098f900 + (n))
#define BUTTON_FLAGS (V4L2_CTRL_FLAG_WRITE_ONLY | V4L2_CTRL_FLAG_EXECUTE_ON_WRITE)
static const char *const vivid_menu[] = {NULL, "Menu Item 1", NULL, "Menu Item 3", "Menu Item 4"};
static const int64_t vivid_int_menu[] = {1, 1, 2, 3, 5, 8, 13, 21, 42};
static const struct vcam_control test_button = {VIVID_CID(0), V4L2_CTRL_TYPE_BUTTON, "Button", 0, 0, 0, 0, BUTTON_FLAGS, NULL};
static const struct vcam_control test_boolean = {VIVID_CID(1), V4L2_CTRL_TYPE_BOOLEAN, "Boolean", 0, 1, 1, 1, 0, NULL};
static const struct vcam_control test_int32 = {VIVID_CID(2), V4L2_CTRL_TYPE_INTEGER, "Integer 32 Bits", INT32_MIN, INT32_MAX, 1, 0, 0, NULL};
static const struct vcam_control test_int64 = {VIVID_CID(3), V4L2_CTRL_TYPE_INTEGER64, "Integer 64 Bits", INT64_MIN, INT64_MAX, 1, 0, 0, NULL};
static const struct vcam_control test_menu = {VIVID_CID(4), V4L2_CTRL_TYPE_MENU, "Menu", 1, 4, 1, 3, 0, vivid_menu};
static const struct vcam_control test_string = {VIVID_CID(5), V4L2_CTRL_TYPE_STRING, "String", 2, 4, 1, 0, V4L2_CTRL_FLAG_HAS_PAYLOAD, NULL};
static const struct vcam_control test_bitmask = {VIVID_CID(6), V4L2_CTRL_TYPE_BITMASK, "Bitmask", 0, 0x80402010, 0, 0x80002000, 0, NULL};
static const struct vcam_control test_int_menu = {VIVID_CID(7), V4L2_CTRL_TYPE_INTEGER_MENU, "Integer Menu", 1, 8, 1, 4, 0, NULL,
                                                  .int_menu = vivid_int_menu, .skip_mask = 0x02};
static const struct vcam_control test_u32_array = {VIVID_CID(8), V4L2_CTRL_TYPE_U32, "U32 1 Element Array", 16, 131072, 1, 24,
                                                   V4L2_CTRL_FLAG_HAS_PAYLOAD, NULL, .dims = {1}};
static const struct vcam_control test_u16_matrix = {VIVID_CID(9), V4L2_CTRL_TYPE_U16, "U16 8x16 Matrix", 16, 8192, 1, 24,
                                                    V4L2_CTRL_FLAG_HAS_PAYLOAD, NULL, .dims = {8, 16}};
static const struct vcam_control test_u8_array = {VIVID_CID(10), V4L2_CTRL_TYPE_U8, "U8 2x3x4x5 Array", 16, 32, 1, 24,
                                                  V4L2_CTRL_FLAG_HAS_PAYLOAD, NULL, .dims = {2, 3, 4, 5}};
static const struct vcam_control test_area = {VIVID_CID(11), V4L2_CTRL_TYPE_AREA, "Area", 0, 0, 0, 0, V4L2_CTRL_FLAG_HAS_PAYLOAD, NULL};
static const struct v4l2_area area_default = {1000, 2000};
static const struct vcam_control test_ro_int32 = {VIVID_CID(12), V4L2_CTRL_TYPE_INTEGER, "Read-Only Integer 32 Bits", 0, 255, 1, 0,
                                                  V4L2_CTRL_FLAG_READ_ONLY, NULL};
static const struct vcam_control vivid_class = {VCAM_CID_VIVID_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "Vivid Controls", 0, 0, 0, 0, CLASS_FLAGS, NULL};
static const struct vcam_control vivid_disconnect = {VCAM_CID_VIVID_DISCONNECT, V4L2_CTRL_TYPE_BUTTON, "Disconnect", 0, 0, 0, 0, BUTTON_FLAGS, NULL};

// ROI limits: the whole largest frame at most, one pixel at least.
static const struct v4l2_rect roi_min = {0, 0, 1, 1};
static const struct v4l2_rect roi_max = {0, 0, 1920, 1080};

// Every control any profile has, in a fixed order: a control's slot in the shared state is its
// position here, so the state stays meaningful when a device's profile changes between runs.
static const struct vcam_control *const all_controls[] = {
    &user_class, &brightness, &contrast, &roi_rect, &roi_auto, &camera_class, &exposure_auto, &exposure_abs,
    &focus_abs, &focus_auto, &zoom_abs, &af_start, &af_stop, &af_status, &flash_class, &led_mode, &strobe, &torch,
    &test_button, &test_boolean, &test_int32, &test_int64, &test_menu, &test_string, &test_bitmask, &test_int_menu,
    &test_u32_array, &test_u16_matrix, &test_u8_array, &test_ro_int32, &vivid_class, &vivid_disconnect, &test_area,
};
#define NUM_ALL_CONTROLS (sizeof all_controls / sizeof all_controls[0])
_Static_assert(NUM_ALL_CONTROLS <= VCAM_MAX_CONTROLS, "shared state has a slot for every control");

static int slot_of(const struct vcam_control *c) {
    for (size_t k = 0; k < NUM_ALL_CONTROLS; k++)
        if (all_controls[k] == c) return (int)k;
    return 0;
}

#define VALUE(dev, i) (&(dev)->shared->value[(dev)->slot[i]])

static bool is_string(const struct vcam_control *c) { return c->type == V4L2_CTRL_TYPE_STRING; }
static bool is_array(const struct vcam_control *c) { return c->dims[0] != 0; }
// Values that live in the payload area rather than in value[] (the rectangle has its own fields).
static bool has_payload(const struct vcam_control *c) {
    return is_string(c) || is_array(c) || c->type == V4L2_CTRL_TYPE_AREA;
}

static uint32_t elem_size(const struct vcam_control *c) {
    switch (c->type) {
    case VCAM_CTRL_TYPE_RECT: return sizeof(struct v4l2_rect);
    case V4L2_CTRL_TYPE_INTEGER64: return 8;
    case V4L2_CTRL_TYPE_AREA: return sizeof(struct v4l2_area);
    case V4L2_CTRL_TYPE_STRING: return (uint32_t)c->maximum + 1;
    case V4L2_CTRL_TYPE_U8: return 1;
    case V4L2_CTRL_TYPE_U16: return 2;
    default: return 4;
    }
}

static uint32_t elems(const struct vcam_control *c) {
    uint32_t n = 1;
    for (int d = 0; d < V4L2_CTRL_MAX_DIMS && c->dims[d]; d++) n *= c->dims[d];
    return n;
}

static uint32_t nr_of_dims(const struct vcam_control *c) {
    uint32_t n = 0;
    while (n < V4L2_CTRL_MAX_DIMS && c->dims[n]) n++;
    return n;
}

// A payload control's bytes in the shared state: laid out in all_controls order.
static uint8_t *payload(struct vcam_device *dev, const struct vcam_control *c) {
    size_t offset = 0;
    for (size_t k = 0; k < NUM_ALL_CONTROLS && all_controls[k] != c; k++)
        if (has_payload(all_controls[k])) offset += elems(all_controls[k]) * elem_size(all_controls[k]);
    return dev->shared->payload + offset;
}

static uint32_t array_get(const struct vcam_control *c, const uint8_t *p, uint32_t k) {
    switch (c->type) {
    case V4L2_CTRL_TYPE_U8: return p[k];
    case V4L2_CTRL_TYPE_U16: { uint16_t v; memcpy(&v, p + 2 * k, 2); return v; }
    default: { uint32_t v; memcpy(&v, p + 4 * k, 4); return v; }
    }
}

static void array_put(const struct vcam_control *c, uint8_t *p, uint32_t k, uint32_t v) {
    switch (c->type) {
    case V4L2_CTRL_TYPE_U8: p[k] = (uint8_t)v; break;
    case V4L2_CTRL_TYPE_U16: { uint16_t x = (uint16_t)v; memcpy(p + 2 * k, &x, 2); break; }
    default: memcpy(p + 4 * k, &v, 4); break;
    }
}

// A payload value with every element at the minimum, maximum or default (strings: that many spaces,
// as the control framework initialises them).
static void payload_fill(const struct vcam_control *c, uint8_t *p, int64_t element) {
    if (c->type == V4L2_CTRL_TYPE_AREA) {   // one fixed value, as vivid's (it has no limits)
        memcpy(p, &area_default, sizeof area_default);
        return;
    }
    if (is_string(c)) {
        memset(p, ' ', (size_t)element);
        p[element] = 0;
        return;
    }
    for (uint32_t k = 0; k < elems(c); k++) array_put(c, p, k, (uint32_t)element);
}

void vcam_controls_setup(struct vcam_device *dev) {
    const struct vcam_control *list[VCAM_MAX_CONTROLS];
    int n = 0;
    enum vcam_profile p = dev->profile;
    list[n++] = &user_class;
    list[n++] = &brightness;
    list[n++] = &contrast;
    if (p == VCAM_PROFILE_UVC || p == VCAM_PROFILE_SENSOR) {
        list[n++] = &roi_rect;
        list[n++] = &roi_auto;
    }
    if (p != VCAM_PROFILE_VIVID) {   // vivid has no camera-class controls
        list[n++] = &camera_class;
        list[n++] = &exposure_auto;
        list[n++] = &exposure_abs;
    }
    if (p == VCAM_PROFILE_UVC || p == VCAM_PROFILE_SENSOR || p == VCAM_PROFILE_WEBCAM) {
        list[n++] = &focus_abs;
        list[n++] = &focus_auto;
    }
    if (p == VCAM_PROFILE_UVC || p == VCAM_PROFILE_SENSOR) list[n++] = &zoom_abs;
    if (p == VCAM_PROFILE_VIVID) {
        const struct vcam_control *vivid[] = {&test_button, &test_boolean, &test_int32, &test_int64, &test_menu,
                                              &test_string, &test_bitmask, &test_int_menu, &test_u32_array,
                                              &test_u16_matrix, &test_u8_array, &test_area, &test_ro_int32, &vivid_class,
                                              &vivid_disconnect};
        for (size_t k = 0; k < sizeof vivid / sizeof vivid[0]; k++) list[n++] = vivid[k];
    }
    if (dev->profile == VCAM_PROFILE_SENSOR) {
        list[n++] = &af_start;
        list[n++] = &af_stop;
        list[n++] = &af_status;
        list[n++] = &flash_class;
        list[n++] = &led_mode;
        list[n++] = &strobe;
        list[n++] = &torch;
    }
    memcpy(dev->controls, list, sizeof(list[0]) * (size_t)n);
    dev->ncontrols = n;
    for (int i = 0; i < n; i++) dev->slot[i] = slot_of(list[i]);
}

void vcam_controls_init_shared(struct vcam_device *dev) {
    for (size_t k = 0; k < NUM_ALL_CONTROLS; k++) {
        const struct vcam_control *c = all_controls[k];
        atomic_store(&dev->shared->value[k], c->default_value);
        if (has_payload(c)) payload_fill(c, payload(dev, c), is_string(c) ? c->minimum : c->default_value);
    }
    atomic_store(&dev->shared->roi[0], 0);
    atomic_store(&dev->shared->roi[1], 0);
    atomic_store(&dev->shared->roi[2], (int32_t)roi_max.width);
    atomic_store(&dev->shared->roi[3], (int32_t)roi_max.height);
    atomic_store(&dev->shared->focus_busy_until, 0);
    atomic_store(&dev->shared->strobe_pending, 0);
}

static int find(struct vcam_device *dev, uint32_t id) {
    for (int i = 0; i < dev->ncontrols; i++)
        if (dev->controls[i]->id == id) return i;
    return -1;
}

static bool is_compound(const struct vcam_control *c) { return c->type >= V4L2_CTRL_COMPOUND_TYPES; }

// Old-style private ids (V4L2_CID_PRIVATE_BASE + n) name the n-th driver-private user control.
static int find_private(struct vcam_device *dev, uint32_t id) {
    if (id < V4L2_CID_PRIVATE_BASE) return find(dev, id);
    uint32_t n = id - V4L2_CID_PRIVATE_BASE;
    for (int i = 0; i < dev->ncontrols; i++) {
        const struct vcam_control *c = dev->controls[i];
        if (V4L2_CTRL_ID2WHICH(c->id) != V4L2_CTRL_CLASS_USER || !V4L2_CTRL_DRIVER_PRIV(c->id) || is_compound(c) ||
            is_string(c) || c->type == V4L2_CTRL_TYPE_INTEGER64)
            continue;   // as the control framework: only controls G_CTRL can read have old-style ids
        if (n-- == 0) return i;
    }
    return -1;
}

// The control a QUERY(_EXT)CTRL id names, honouring NEXT_CTRL / NEXT_COMPOUND; -1 if none.
static int query_target(struct vcam_device *dev, uint32_t raw) {
    uint32_t next = raw & (V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
    uint32_t id = raw & ~next;
    if (!next) return find_private(dev, id);
    int best = -1;
    for (int i = 0; i < dev->ncontrols; i++) {
        const struct vcam_control *c = dev->controls[i];
        if (c->id <= id) continue;
        if (next == V4L2_CTRL_FLAG_NEXT_CTRL && is_compound(c)) continue;
        if (next == V4L2_CTRL_FLAG_NEXT_COMPOUND && !is_compound(c)) continue;
        if (best < 0 || c->id < dev->controls[best]->id) best = i;
    }
    return best;
}

static int64_t current(struct vcam_device *dev, int i) {
    const struct vcam_control *c = dev->controls[i];
    if (c->id == V4L2_CID_AUTO_FOCUS_STATUS) {
        uint64_t until = atomic_load(&dev->shared->focus_busy_until);
        if (!until) return V4L2_AUTO_FOCUS_STATUS_IDLE;
        return vcam_now_ns() < until ? V4L2_AUTO_FOCUS_STATUS_BUSY : V4L2_AUTO_FOCUS_STATUS_REACHED;
    }
    return atomic_load(VALUE(dev, i));
}

int64_t vcam_control_value(struct vcam_device *dev, uint32_t id, int64_t fallback) {
    int i = find(dev, id);
    return i < 0 ? fallback : current(dev, i);
}

// Brings a new value into range as the control framework does: integers are clamped and rounded to
// the step, menus and bitmasks out of range are errors.
static int validate(const struct vcam_control *c, int64_t *v) {
    switch (c->type) {
    case V4L2_CTRL_TYPE_INTEGER:
    case V4L2_CTRL_TYPE_INTEGER64: {
        // 128-bit arithmetic: a 64-bit control's range can be the whole of int64.
        __int128 x = *v < c->minimum ? c->minimum : *v > c->maximum ? c->maximum : *v;
        x = c->minimum + (x - c->minimum + c->step / 2) / c->step * c->step;
        if (x > c->maximum) x -= c->step;
        *v = (int64_t)x;
        return 0;
    }
    case V4L2_CTRL_TYPE_INTEGER_MENU:
        if (*v < c->minimum || *v > c->maximum) return -ERANGE;
        if (c->skip_mask & (1ull << *v)) return -EINVAL;
        return 0;
    case V4L2_CTRL_TYPE_BOOLEAN:
        *v = *v != 0;
        return 0;
    case V4L2_CTRL_TYPE_MENU:
        if (*v < c->minimum || *v > c->maximum) return -ERANGE;
        if (!c->menu[*v]) return -EINVAL;
        return 0;
    case V4L2_CTRL_TYPE_BITMASK:
        *v = (uint32_t)*v;   // a 32-bit mask: bit 31 must not sign-extend
        return (*v & ~c->maximum) ? -ERANGE : 0;
    case V4L2_CTRL_TYPE_BUTTON:
        *v = 0;
        return 0;
    default:
        return 0;
    }
}

// As uvcvideo does, a manual control is INACTIVE while the auto control that governs it is on.
static uint32_t governing_control(uint32_t id) {
    if (id == V4L2_CID_EXPOSURE_ABSOLUTE) return V4L2_CID_EXPOSURE_AUTO;
    if (id == V4L2_CID_FOCUS_ABSOLUTE) return V4L2_CID_FOCUS_AUTO;
    return 0;
}

static uint32_t flags_now(struct vcam_device *dev, int i) {
    const struct vcam_control *c = dev->controls[i];
    uint32_t flags = c->flags;
    if (c->id == V4L2_CID_EXPOSURE_ABSOLUTE &&
        vcam_control_value(dev, V4L2_CID_EXPOSURE_AUTO, V4L2_EXPOSURE_MANUAL) != V4L2_EXPOSURE_MANUAL)
        flags |= V4L2_CTRL_FLAG_INACTIVE;
    if (c->id == V4L2_CID_FOCUS_ABSOLUTE && vcam_control_value(dev, V4L2_CID_FOCUS_AUTO, 0))
        flags |= V4L2_CTRL_FLAG_INACTIVE;
    return flags;
}

static void fill_ctrl_event(struct vcam_device *dev, int i, uint32_t changes, struct v4l2_event *ev) {
    const struct vcam_control *c = dev->controls[i];
    memset(ev, 0, sizeof *ev);
    ev->type = V4L2_EVENT_CTRL;
    ev->id = c->id;
    ev->u.ctrl.changes = changes;
    ev->u.ctrl.type = c->type;
    if (!(c->flags & V4L2_CTRL_FLAG_WRITE_ONLY) && !is_compound(c) && !is_string(c)) ev->u.ctrl.value64 = current(dev, i);
    ev->u.ctrl.flags = flags_now(dev, i);
    ev->u.ctrl.minimum = (int32_t)c->minimum;
    ev->u.ctrl.maximum = (int32_t)c->maximum;
    ev->u.ctrl.step = (int32_t)c->step;
    ev->u.ctrl.default_value = (int32_t)c->default_value;
}

// Queues a value-change event for every subscriber; setter (NULL when another process set it) gets
// one only with V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK.
static void notify_locked(struct vcam_device *dev, struct vcam_open *setter, int i, uint32_t changes) {
    struct v4l2_event ev;
    fill_ctrl_event(dev, i, changes, &ev);
    for (struct vcam_open *op = dev->opens; op; op = op->next) {
        if (op->dead) continue;
        for (int s = 0; s < op->nsubs; s++) {
            if (op->subs[s].type != V4L2_EVENT_CTRL || op->subs[s].id != ev.id) continue;
            if (setter && op == setter && !(op->subs[s].flags & V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK)) continue;
            vcam_event_push_locked(op, &ev);
        }
    }
}

// A value change, plus the flag change of the controls this one governs.
static void notify_change_locked(struct vcam_device *dev, struct vcam_open *setter, int i) {
    notify_locked(dev, setter, i, V4L2_EVENT_CTRL_CH_VALUE);
    for (int j = 0; j < dev->ncontrols; j++)
        if (governing_control(dev->controls[j]->id) == dev->controls[i]->id)
            notify_locked(dev, setter, j, V4L2_EVENT_CTRL_CH_FLAGS);
}

// Stores a validated value and runs what the hardware would do on it.
static void apply(struct vcam_open *op, int i, int64_t v) {
    struct vcam_device *dev = op->dev;
    const struct vcam_control *c = dev->controls[i];
    switch (c->id) {
    case V4L2_CID_AUTO_FOCUS_START:
        atomic_store(VALUE(dev, find(dev, V4L2_CID_FOCUS_ABSOLUTE)), focus_abs.default_value);
        atomic_store(&dev->shared->focus_busy_until, vcam_now_ns() + 300000000ull);
        break;
    case V4L2_CID_AUTO_FOCUS_STOP:
        atomic_store(&dev->shared->focus_busy_until, 0);
        break;
    case V4L2_CID_FLASH_STROBE:
        if (vcam_control_value(dev, V4L2_CID_FLASH_LED_MODE, 0) == V4L2_FLASH_LED_MODE_FLASH)
            atomic_store(&dev->shared->strobe_pending, 2);
        break;
    case VCAM_CID_VIVID_DISCONNECT:
        // Every handle (of every process) fails from its next ioctl on; this one still succeeds.
        vcam_disconnect(dev);
        pthread_mutex_lock(&dev->lock);
        vcam_unplug_locked(dev);
        pthread_mutex_unlock(&dev->lock);
        return;
    default:
        break;
    }
    pthread_mutex_lock(&dev->lock);
    bool changed = c->type == V4L2_CTRL_TYPE_BUTTON || atomic_exchange(VALUE(dev, i), v) != v;
    atomic_fetch_add(&dev->shared->generation, 1);
    dev->seen[i] = v;
    if (changed) notify_change_locked(dev, op, i);
    pthread_mutex_unlock(&dev->lock);
}

static void fill_query_ext(struct vcam_device *dev, int i, struct v4l2_query_ext_ctrl *q) {
    const struct vcam_control *c = dev->controls[i];
    memset(q, 0, sizeof *q);
    q->id = c->id;
    q->type = c->type;
    snprintf(q->name, sizeof q->name, "%s", c->name);
    q->minimum = c->minimum;
    q->maximum = c->maximum;
    q->step = (uint64_t)c->step;
    q->default_value = c->default_value;
    q->flags = flags_now(dev, i);
    q->elem_size = elem_size(c);
    q->elems = elems(c);
    q->nr_of_dims = nr_of_dims(c);
    memcpy(q->dims, c->dims, sizeof q->dims);
    if (c->type == V4L2_CTRL_TYPE_INTEGER_MENU || c->type == V4L2_CTRL_TYPE_MENU) q->step = 1;
}

static int query_ext_ctrl(struct vcam_device *dev, struct v4l2_query_ext_ctrl *q) {
    uint32_t asked = q->id;
    int i = query_target(dev, asked);
    if (i < 0) return -EINVAL;
    fill_query_ext(dev, i, q);
    if (asked >= V4L2_CID_PRIVATE_BASE && asked < V4L2_CTRL_FLAG_NEXT_COMPOUND) q->id = asked;
    return 0;
}

static int queryctrl(struct vcam_device *dev, struct v4l2_queryctrl *q) {
    uint32_t asked = q->id;
    int i = query_target(dev, asked);
    if (i < 0) return -EINVAL;
    struct v4l2_query_ext_ctrl e;
    fill_query_ext(dev, i, &e);
    memset(q, 0, sizeof *q);
    q->id = asked >= V4L2_CID_PRIVATE_BASE && asked < V4L2_CTRL_FLAG_NEXT_COMPOUND ? asked : e.id;
    q->type = e.type;
    snprintf((char *)q->name, sizeof q->name, "%s", e.name);
    q->flags = e.flags;
    // As v4l2_queryctrl: the 32-bit fields carry the limits of 32-bit kinds of control only.
    uint32_t t = e.type;
    if (t == V4L2_CTRL_TYPE_INTEGER || t == V4L2_CTRL_TYPE_BOOLEAN || t == V4L2_CTRL_TYPE_MENU ||
        t == V4L2_CTRL_TYPE_INTEGER_MENU || t == V4L2_CTRL_TYPE_STRING || t == V4L2_CTRL_TYPE_BITMASK) {
        q->minimum = (int32_t)e.minimum;
        q->maximum = (int32_t)e.maximum;
        q->step = (int32_t)e.step;
        q->default_value = (int32_t)e.default_value;
    }
    return 0;
}

static int querymenu(struct vcam_device *dev, struct v4l2_querymenu *m) {
    int i = find_private(dev, m->id);
    if (i < 0) return -EINVAL;
    const struct vcam_control *c = dev->controls[i];
    if ((c->type != V4L2_CTRL_TYPE_MENU && c->type != V4L2_CTRL_TYPE_INTEGER_MENU) ||
        (int64_t)m->index < c->minimum || (int64_t)m->index > c->maximum)
        return -EINVAL;
    if (c->type == V4L2_CTRL_TYPE_MENU ? !c->menu[m->index] : (c->skip_mask & (1ull << m->index)) != 0) return -EINVAL;
    uint32_t id = m->id, index = m->index;
    memset(m, 0, sizeof *m);
    m->id = id;
    m->index = index;
    if (c->type == V4L2_CTRL_TYPE_MENU) snprintf((char *)m->name, sizeof m->name, "%s", c->menu[index]);
    else m->value = c->int_menu[index];
    return 0;
}

static int g_ctrl(struct vcam_device *dev, struct v4l2_control *ctl) {
    int i = find_private(dev, ctl->id);
    if (i < 0 || is_compound(dev->controls[i]) || dev->controls[i]->type == V4L2_CTRL_TYPE_INTEGER64 ||
        is_string(dev->controls[i]))
        return -EINVAL;
    if (dev->controls[i]->flags & V4L2_CTRL_FLAG_WRITE_ONLY) return -EACCES;
    ctl->value = (int32_t)current(dev, i);
    return 0;
}

static int s_ctrl(struct vcam_open *op, struct v4l2_control *ctl) {
    struct vcam_device *dev = op->dev;
    int i = find_private(dev, ctl->id);
    if (i < 0 || is_compound(dev->controls[i]) || dev->controls[i]->type == V4L2_CTRL_TYPE_INTEGER64 ||
        is_string(dev->controls[i]))
        return -EINVAL;
    if (dev->controls[i]->flags & V4L2_CTRL_FLAG_READ_ONLY) return -EACCES;
    int64_t v = ctl->value;
    int r = validate(dev->controls[i], &v);
    if (r) return r;
    apply(op, i, v);
    ctl->value = (int32_t)v;
    return 0;
}

static bool is_class_which(uint32_t which) {
    return which != V4L2_CTRL_WHICH_CUR_VAL && which != V4L2_CTRL_WHICH_DEF_VAL &&
           which != V4L2_CTRL_WHICH_REQUEST_VAL && which != VCAM_CTRL_WHICH_MIN_VAL && which != VCAM_CTRL_WHICH_MAX_VAL;
}

static void clamp_rect(struct v4l2_rect *r) {
    if (r->width < roi_min.width) r->width = roi_min.width;
    if (r->height < roi_min.height) r->height = roi_min.height;
    if (r->width > roi_max.width) r->width = roi_max.width;
    if (r->height > roi_max.height) r->height = roi_max.height;
    if (r->left < 0) r->left = 0;
    if (r->top < 0) r->top = 0;
    if ((uint32_t)r->left + r->width > roi_max.width) r->left = (int32_t)(roi_max.width - r->width);
    if ((uint32_t)r->top + r->height > roi_max.height) r->top = (int32_t)(roi_max.height - r->height);
}

static int ext_ctrls_checked(struct vcam_open *op, unsigned long request, struct v4l2_ext_controls *cs);

// Reads a string or array value from the application into out (elems × elem_size bytes) and brings
// it into range as the control framework does: strings of the wrong length are ERANGE, array
// elements are clamped to the limits.
static int take_payload(const struct vcam_control *ctl, const struct v4l2_ext_control *c, uint8_t *out) {
    if (is_string(ctl)) {
        uint32_t size = c->size > elem_size(ctl) ? elem_size(ctl) : c->size;
        if (size == 0) {
            out[0] = 0;
        } else {
            memcpy(out, c->string, size);
            char last = (char)out[size - 1];
            out[size - 1] = 0;
            if (strlen((char *)out) == (size_t)ctl->maximum && last) return -ERANGE;
        }
        size_t len = strlen((char *)out);
        if ((int64_t)len < ctl->minimum || (len - (size_t)ctl->minimum) % (size_t)ctl->step) return -ERANGE;
        return 0;
    }
    memcpy(out, c->ptr, elems(ctl) * elem_size(ctl));
    if (ctl->type == V4L2_CTRL_TYPE_AREA) {
        struct v4l2_area area;
        memcpy(&area, out, sizeof area);
        return area.width && area.height ? 0 : -EINVAL;   // as the control framework validates an area
    }
    for (uint32_t k = 0; k < elems(ctl); k++) {
        int64_t v = array_get(ctl, out, k);
        v = v < ctl->minimum ? ctl->minimum : v > ctl->maximum ? ctl->maximum : v;
        v = ctl->minimum + (v - ctl->minimum + ctl->step / 2) / ctl->step * ctl->step;
        if (v > ctl->maximum) v -= ctl->step;
        array_put(ctl, out, k, (uint32_t)v);
    }
    return 0;
}

static void apply_payload(struct vcam_open *op, int i, const uint8_t *value) {
    struct vcam_device *dev = op->dev;
    const struct vcam_control *c = dev->controls[i];
    size_t n = is_string(c) ? strlen((const char *)value) + 1 : elems(c) * elem_size(c);
    pthread_mutex_lock(&dev->lock);
    uint8_t *stored = payload(dev, c);
    bool changed = memcmp(stored, value, n) != 0;
    memcpy(stored, value, n);
    atomic_fetch_add(&dev->shared->generation, 1);
    if (changed) notify_change_locked(dev, op, i);
    pthread_mutex_unlock(&dev->lock);
}

// A failed S_EXT_CTRLS or G_EXT_CTRLS reports error_idx == count (nothing was applied or read), as the
// control framework does; TRY_EXT_CTRLS points at the failing control.
static int ext_ctrls(struct vcam_open *op, unsigned long request, struct v4l2_ext_controls *cs) {
    int r = ext_ctrls_checked(op, request, cs);
    if (r && request == VIDIOC_S_EXT_CTRLS && r != -EFAULT) cs->error_idx = cs->count;
    if (r && request == VIDIOC_G_EXT_CTRLS && r != -EFAULT && r != -ENOSPC) cs->error_idx = cs->count;
    return r;
}

static int ext_ctrls_checked(struct vcam_open *op, unsigned long request, struct v4l2_ext_controls *cs) {
    struct vcam_device *dev = op->dev;
    uint32_t which = cs->which;
    bool get = request == VIDIOC_G_EXT_CTRLS, set = request == VIDIOC_S_EXT_CTRLS;
    if (which == V4L2_CTRL_WHICH_REQUEST_VAL) {
        cs->error_idx = cs->count;
        return -EINVAL;   // no media requests on this device
    }
    if ((which == VCAM_CTRL_WHICH_MIN_VAL || which == VCAM_CTRL_WHICH_MAX_VAL) && !get) {
        cs->error_idx = cs->count;
        return -EINVAL;
    }
    if (cs->count == 0) {
        if (!is_class_which(which)) return 0;
        return find(dev, which | 1) >= 0 ? 0 : -EINVAL;
    }
    if (cs->count > 1024) {
        cs->error_idx = cs->count;
        return -ENOMEM;
    }
    if (!cs->controls) return -EFAULT;
    int idx[1024];
    for (uint32_t n = 0; n < cs->count; n++) {
        struct v4l2_ext_control *c = &cs->controls[n];
        cs->error_idx = n;
        if (is_class_which(which) && V4L2_CTRL_ID2WHICH(c->id) != which) return -EINVAL;
        int i = find(dev, c->id);
        if (i < 0) return -EINVAL;
        const struct vcam_control *ctl = dev->controls[i];
        if (is_compound(ctl)) {
            uint32_t total = elems(ctl) * elem_size(ctl);
            if (c->size < total) {
                // A getter learns the size this way; a setter gave too little (v4l2-ctrls-api.c).
                if (get) {
                    c->size = total;
                    return -ENOSPC;
                }
                return -EFAULT;
            }
            if (!c->ptr) return -EFAULT;
            c->size = total;
        }
        if (is_string(ctl) && c->size && !c->string) return -EFAULT;
        idx[n] = i;
    }
    if (get) {
        cs->error_idx = cs->count;
        for (uint32_t n = 0; n < cs->count; n++)
            if (dev->controls[idx[n]]->flags & V4L2_CTRL_FLAG_WRITE_ONLY) return -EACCES;
        for (uint32_t n = 0; n < cs->count; n++) {
            struct v4l2_ext_control *c = &cs->controls[n];
            const struct vcam_control *ctl = dev->controls[idx[n]];
            if (ctl->type == VCAM_CTRL_TYPE_RECT) {
                struct v4l2_rect r;
                if (which == VCAM_CTRL_WHICH_MIN_VAL) r = roi_min;
                else if (which == VCAM_CTRL_WHICH_MAX_VAL || which == V4L2_CTRL_WHICH_DEF_VAL) r = roi_max;
                else r = (struct v4l2_rect){atomic_load(&dev->shared->roi[0]), atomic_load(&dev->shared->roi[1]),
                                            (uint32_t)atomic_load(&dev->shared->roi[2]), (uint32_t)atomic_load(&dev->shared->roi[3])};
                memcpy(c->ptr, &r, sizeof r);
                c->size = sizeof r;
                continue;
            }
            if (has_payload(ctl)) {
                uint8_t value[VCAM_PAYLOAD_BYTES];
                if (which == V4L2_CTRL_WHICH_DEF_VAL || which == VCAM_CTRL_WHICH_MIN_VAL || which == VCAM_CTRL_WHICH_MAX_VAL)
                    payload_fill(ctl, value, which == VCAM_CTRL_WHICH_MAX_VAL ? ctl->maximum
                                             : is_string(ctl) || which == VCAM_CTRL_WHICH_MIN_VAL ? ctl->minimum
                                             : ctl->default_value);
                else
                    memcpy(value, payload(dev, ctl), elems(ctl) * elem_size(ctl));
                if (is_string(ctl)) {
                    size_t len = strnlen((char *)value, elem_size(ctl) - 1);
                    value[len] = 0;
                    if (c->size < len + 1) {
                        c->size = elem_size(ctl);
                        cs->error_idx = n;
                        return -ENOSPC;
                    }
                    memcpy(c->string, value, len + 1);
                } else {
                    memcpy(c->ptr, value, elems(ctl) * elem_size(ctl));
                }
                continue;
            }
            int64_t v = which == V4L2_CTRL_WHICH_DEF_VAL ? ctl->default_value
                      : which == VCAM_CTRL_WHICH_MIN_VAL ? ctl->minimum
                      : which == VCAM_CTRL_WHICH_MAX_VAL ? ctl->maximum
                      : current(dev, idx[n]);
            if (ctl->type == V4L2_CTRL_TYPE_INTEGER64) c->value64 = v;
            else c->value = (int32_t)v;
        }
        return 0;
    }
    if (which == V4L2_CTRL_WHICH_DEF_VAL) {
        cs->error_idx = cs->count;
        return -EINVAL;
    }
    int64_t values[1024];
    struct v4l2_rect rect = {0};
    for (uint32_t n = 0; n < cs->count; n++) {
        struct v4l2_ext_control *c = &cs->controls[n];
        const struct vcam_control *ctl = dev->controls[idx[n]];
        cs->error_idx = n;
        if (ctl->flags & V4L2_CTRL_FLAG_READ_ONLY) return -EACCES;
        if (ctl->type == VCAM_CTRL_TYPE_RECT) {
            memcpy(&rect, c->ptr, sizeof rect);
            clamp_rect(&rect);
            continue;
        }
        if (has_payload(ctl)) {
            uint8_t value[VCAM_PAYLOAD_BYTES];
            int r = take_payload(ctl, c, value);
            if (r) return r;
            continue;
        }
        values[n] = ctl->type == V4L2_CTRL_TYPE_INTEGER64 ? c->value64 : c->value;
        int r = validate(ctl, &values[n]);
        if (r) return r;
    }
    for (uint32_t n = 0; n < cs->count; n++) {
        struct v4l2_ext_control *c = &cs->controls[n];
        const struct vcam_control *ctl = dev->controls[idx[n]];
        if (ctl->type == VCAM_CTRL_TYPE_RECT) {
            memcpy(c->ptr, &rect, sizeof rect);
            if (set) {
                atomic_store(&dev->shared->roi[0], rect.left);
                atomic_store(&dev->shared->roi[1], rect.top);
                atomic_store(&dev->shared->roi[2], (int32_t)rect.width);
                atomic_store(&dev->shared->roi[3], (int32_t)rect.height);
            }
            continue;
        }
        if (has_payload(ctl)) {
            uint8_t value[VCAM_PAYLOAD_BYTES];
            take_payload(ctl, c, value);   // validated above: this only repeats the clamping
            if (is_array(ctl)) memcpy(c->ptr, value, elems(ctl) * elem_size(ctl));
            if (set) apply_payload(op, idx[n], value);
            continue;
        }
        if (ctl->type == V4L2_CTRL_TYPE_INTEGER64) c->value64 = values[n];
        else c->value = (int32_t)values[n];
        if (set) apply(op, idx[n], values[n]);
    }
    if (set) cs->error_idx = cs->count;
    return 0;
}

int vcam_control_ioctl(struct vcam_open *op, unsigned long request, void *arg) {
    struct vcam_device *dev = op->dev;
    switch (request) {
    case VIDIOC_QUERYCTRL: return queryctrl(dev, arg);
    case VIDIOC_QUERY_EXT_CTRL: return query_ext_ctrl(dev, arg);
    case VIDIOC_QUERYMENU: return querymenu(dev, arg);
    case VIDIOC_G_CTRL: return g_ctrl(dev, arg);
    case VIDIOC_S_CTRL: return s_ctrl(op, arg);
    default: return ext_ctrls(op, request, arg);
    }
}

// ---- events -------------------------------------------------------------------------------------

void vcam_event_push_locked(struct vcam_open *op, const struct v4l2_event *ev) {
    if (op->nevents == VCAM_MAX_EVENTS) {
        memmove(op->events, op->events + 1, sizeof op->events[0] * (VCAM_MAX_EVENTS - 1));
        op->nevents--;
    }
    struct v4l2_event *e = &op->events[op->nevents++];
    *e = *ev;
    e->sequence = op->event_sequence++;
    uint64_t now = vcam_now_ns();
    e->timestamp.tv_sec = (time_t)(now / 1000000000ull);
    e->timestamp.tv_nsec = (long)(now % 1000000000ull);
    vcam_socket_signal_event(op);
}

static void remember_values_locked(struct vcam_device *dev);

static int subscribe(struct vcam_open *op, const struct v4l2_event_subscription *sub) {
    struct vcam_device *dev = op->dev;
    if (sub->type != V4L2_EVENT_CTRL) return -EINVAL;
    int i = find(dev, sub->id);
    if (i < 0) return -EINVAL;
    int s;
    for (s = 0; s < op->nsubs; s++)
        if (op->subs[s].type == sub->type && op->subs[s].id == sub->id) break;
    if (s == op->nsubs) {
        if (op->nsubs == VCAM_MAX_SUBSCRIPTIONS) return -ENOMEM;
        op->nsubs++;
    }
    op->subs[s] = (struct vcam_subscription){sub->type, sub->id, sub->flags};
    if (!dev->seen_valid) remember_values_locked(dev);
    if ((sub->flags & V4L2_EVENT_SUB_FL_SEND_INITIAL) && dev->controls[i]->type != V4L2_CTRL_TYPE_CTRL_CLASS) {
        struct v4l2_event ev;
        uint32_t changes = V4L2_EVENT_CTRL_CH_FLAGS;
        if (!(dev->controls[i]->flags & V4L2_CTRL_FLAG_WRITE_ONLY)) changes |= V4L2_EVENT_CTRL_CH_VALUE;
        fill_ctrl_event(dev, i, changes, &ev);
        vcam_event_push_locked(op, &ev);
    }
    return 0;
}

static void remember_values_locked(struct vcam_device *dev) {
    for (int i = 0; i < dev->ncontrols; i++) dev->seen[i] = atomic_load(VALUE(dev, i));
    dev->seen_valid = true;
}

// Control events across processes: the watcher thread compares the shared values with the ones this
// process last saw and queues change events for what another process set.
void vcam_controls_notice_foreign_changes_locked(struct vcam_device *dev) {
    if (!dev->seen_valid) {
        remember_values_locked(dev);
        return;
    }
    for (int i = 0; i < dev->ncontrols; i++) {
        const struct vcam_control *c = dev->controls[i];
        if (c->type == V4L2_CTRL_TYPE_BUTTON || c->type == V4L2_CTRL_TYPE_CTRL_CLASS || is_compound(c) || is_string(c) ||
            (c->flags & V4L2_CTRL_FLAG_VOLATILE))
            continue;
        int64_t v = atomic_load(VALUE(dev, i));
        if (v == dev->seen[i]) continue;
        dev->seen[i] = v;
        notify_change_locked(dev, NULL, i);
    }
}

static void drop_events_locked(struct vcam_open *op, uint32_t type, uint32_t id, bool all) {
    int kept = 0;
    for (int e = 0; e < op->nevents; e++)
        if (!all && !(op->events[e].type == type && op->events[e].id == id)) op->events[kept++] = op->events[e];
    op->nevents = kept;
}

static int unsubscribe(struct vcam_open *op, const struct v4l2_event_subscription *sub) {
    bool all = sub->type == V4L2_EVENT_ALL;
    int kept = 0;
    for (int s = 0; s < op->nsubs; s++)
        if (!all && !(op->subs[s].type == sub->type && op->subs[s].id == sub->id)) op->subs[kept++] = op->subs[s];
    op->nsubs = kept;
    drop_events_locked(op, sub->type, sub->id, all);
    return 0;
}

static int dqevent(struct vcam_open *op, struct v4l2_event *ev) {
    if (!op->nevents) return -ENOENT;
    *ev = op->events[0];
    memmove(op->events, op->events + 1, sizeof op->events[0] * (size_t)--op->nevents);
    ev->pending = (uint32_t)op->nevents;
    if (!op->nevents) vcam_socket_consume_event(op);
    return 0;
}

int vcam_event_ioctl(struct vcam_open *op, unsigned long request, void *arg) {
    struct vcam_device *dev = op->dev;
    pthread_mutex_lock(&dev->lock);
    int r;
    switch (request) {
    case VIDIOC_SUBSCRIBE_EVENT: r = subscribe(op, arg); break;
    case VIDIOC_UNSUBSCRIBE_EVENT: r = unsubscribe(op, arg); break;
    default: r = dqevent(op, arg); break;
    }
    pthread_mutex_unlock(&dev->lock);
    return r;
}
