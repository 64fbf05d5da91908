// The virtual camera exports no API of its own: it interposes libc calls (LD_PRELOAD).
// See docs/virtual-camera.md.
