// The timeline of a cold photo or a preview's start (scripts/photo-timeline, docs/benchmarks.md): an LD_PRELOAD
// library that stamps the moments a process passes through — gst_init, parsing, state changes, the camera's first
// open, STREAMON, the first frame (DQBUF) and the 30th and 60th, fsync, rename, exit — each with CLOCK_MONOTONIC
// milliseconds since it was loaded and the process's CPU time so far (CLOCK_PROCESS_CPUTIME_ID, every thread),
// into $TIMELINE_OUT. It wraps only calls every contender makes through the dynamic linker (GStreamer's API and
// libc), so gstcam and gst-launch-1.0 are timed by the same code, and costs two clock reads per stamp (strace -f
// costs each of the virtual camera's many syscalls a stop, and stretched the probe it was meant to time).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define REAL(ret, name, ...) static ret (*real_##name)(__VA_ARGS__); if (!real_##name) real_##name = dlsym(RTLD_NEXT, #name)

static double start;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// Written with the syscall itself: open() here would be this library's own wrapper.
static void stamp(const char *format, ...) {
    static int fd = -1;
    if (fd < 0) {
        const char *path = getenv("TIMELINE_OUT");
        fd = path ? (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : 2;
    }
    char what[200], line[260];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(what, sizeof what, format, arguments);
    va_end(arguments);
    struct timespec cpu;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    int length = snprintf(line, sizeof line, "%.3f %.3f %s\n", now() - start, cpu.tv_sec * 1e3 + cpu.tv_nsec / 1e6, what);
    if (write(fd, line, length) < 0) { /* nothing to do: the timeline is best effort */ }
}

// "loaded" also carries the absolute time, so that the caller can tell how long exec and linking took.
__attribute__((constructor)) static void loaded(void) {
    start = now();
    stamp("loaded %.3f", start);
}

static int isCamera(const char *path) { return strncmp(path, "/dev/video", 10) == 0; }

int open(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    int mode = va_arg(arguments, int);
    va_end(arguments);
    REAL(int, open, const char *, int, ...);
    int fd = real_open(path, flags, mode);
    if (isCamera(path)) stamp("camera opened");
    return fd;
}

int open64(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    int mode = va_arg(arguments, int);
    va_end(arguments);
    REAL(int, open64, const char *, int, ...);
    int fd = real_open64(path, flags, mode);
    if (isCamera(path)) stamp("camera opened");
    return fd;
}

int ioctl(int fd, unsigned long request, ...) {
    va_list arguments;
    va_start(arguments, request);
    void *argument = va_arg(arguments, void *);
    va_end(arguments);
    REAL(int, ioctl, int, unsigned long, ...);
    if (request == VIDIOC_STREAMON) stamp("STREAMON");
    int result = real_ioctl(fd, request, argument);
    static int frames;  // counted on any thread: a stamp's order within a frame is all it needs
    if (request == VIDIOC_DQBUF && result == 0) {
        frames++;
        if (frames == 1) stamp("first frame");
        if (frames == 30 || frames == 60) stamp("frame %d", frames);
    }
    return result;
}

int fsync(int fd) {
    REAL(int, fsync, int);
    int result = real_fsync(fd);
    stamp("fsync");
    return result;
}

int rename(const char *from, const char *to) {
    REAL(int, rename, const char *, const char *);
    if (strstr(to, "/owner") == NULL) stamp("rename");  // not the virtual camera's own bookkeeping
    return real_rename(from, to);
}

void exit(int status) {
    REAL(void, exit, int);
    stamp("exit");
    real_exit(status);
    abort();
}

typedef void *pointer;

void gst_init(int *argc, char ***argv) {
    REAL(void, gst_init, int *, char ***);
    stamp("gst_init begins");
    real_gst_init(argc, argv);
    stamp("gst_init ends");
}

pointer gst_parse_launch_full(const char *description, pointer context, int flags, pointer error) {
    REAL(pointer, gst_parse_launch_full, const char *, pointer, int, pointer);
    stamp("parse begins");
    pointer result = real_gst_parse_launch_full(description, context, flags, error);
    stamp("parse ends");
    return result;
}

pointer gst_parse_launchv_full(const char **description, pointer context, int flags, pointer error) {
    REAL(pointer, gst_parse_launchv_full, const char **, pointer, int, pointer);
    stamp("parse begins");
    pointer result = real_gst_parse_launchv_full(description, context, flags, error);
    stamp("parse ends");
    return result;
}

int gst_element_set_state(pointer element, int state) {
    REAL(int, gst_element_set_state, pointer, int);
    // gstcam asks for PLAYING at once, gst-launch-1.0 for PAUSED first: either is "started".
    if (state == 3 || state == 4) stamp("started");
    if (state == 1) stamp("stopping");
    return real_gst_element_set_state(element, state);
}
