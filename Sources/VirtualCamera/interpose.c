// The libc functions a V4L2 program uses, interposed with LD_PRELOAD. A call on a virtual device path
// or fd is served by the virtual driver; everything else goes straight to libc. The fast path for
// real fds is one bounds check and one atomic load, so preloading this into any program is safe.
#include "vcam.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <limits.h>
#include <linux/dma-buf.h>
#include <unistd.h>

static void *resolve(const char *name) {
    void *p = dlsym(RTLD_NEXT, name);
    if (!p) p = dlvsym(RTLD_NEXT, name, "GLIBC_2.2.5");
    if (!p) p = dlvsym(RTLD_NEXT, name, "GLIBC_2.17");
    return p;
}

// REAL(name) is the next definition of `name` (libc's), looked up once.
#define REAL_DECL(ret, name, params) static ret(*real_##name) params
#define REAL(name) (real_##name ? real_##name : (real_##name = (__typeof__(real_##name))resolve(#name)))

REAL_DECL(int, open, (const char *, int, ...));
REAL_DECL(int, open64, (const char *, int, ...));
REAL_DECL(int, openat, (int, const char *, int, ...));
REAL_DECL(int, openat64, (int, const char *, int, ...));
REAL_DECL(int, __open_2, (const char *, int));
REAL_DECL(int, __open64_2, (const char *, int));
REAL_DECL(int, __openat_2, (int, const char *, int));
REAL_DECL(int, __openat64_2, (int, const char *, int));
REAL_DECL(int, close, (int));
REAL_DECL(int, dup, (int));
REAL_DECL(int, dup2, (int, int));
REAL_DECL(int, dup3, (int, int, int));
REAL_DECL(int, fcntl, (int, int, ...));
REAL_DECL(int, fcntl64, (int, int, ...));
REAL_DECL(int, ioctl, (int, unsigned long, ...));
REAL_DECL(ssize_t, read, (int, void *, size_t));
REAL_DECL(ssize_t, write, (int, const void *, size_t));
REAL_DECL(void *, mmap, (void *, size_t, int, int, int, off_t));
REAL_DECL(void *, mmap64, (void *, size_t, int, int, int, off64_t));
REAL_DECL(int, munmap, (void *, size_t));
REAL_DECL(int, stat, (const char *, struct stat *));
REAL_DECL(int, stat64, (const char *, struct stat64 *));
REAL_DECL(int, lstat, (const char *, struct stat *));
REAL_DECL(int, lstat64, (const char *, struct stat64 *));
REAL_DECL(int, fstat, (int, struct stat *));
REAL_DECL(int, fstat64, (int, struct stat64 *));
REAL_DECL(int, fstatat, (int, const char *, struct stat *, int));
REAL_DECL(int, fstatat64, (int, const char *, struct stat64 *, int));
REAL_DECL(int, __xstat, (int, const char *, struct stat *));
REAL_DECL(int, __xstat64, (int, const char *, struct stat64 *));
REAL_DECL(int, __lxstat, (int, const char *, struct stat *));
REAL_DECL(int, __lxstat64, (int, const char *, struct stat64 *));
REAL_DECL(int, __fxstat, (int, int, struct stat *));
REAL_DECL(int, __fxstat64, (int, int, struct stat64 *));
REAL_DECL(int, __fxstatat, (int, int, const char *, struct stat *, int));
REAL_DECL(int, __fxstatat64, (int, int, const char *, struct stat64 *, int));
REAL_DECL(int, statx, (int, const char *, int, unsigned int, struct statx *));
REAL_DECL(int, access, (const char *, int));
REAL_DECL(int, faccessat, (int, const char *, int, int));
REAL_DECL(FILE *, fopen, (const char *, const char *));
REAL_DECL(FILE *, fopen64, (const char *, const char *));
REAL_DECL(DIR *, opendir, (const char *));
REAL_DECL(struct dirent *, readdir, (DIR *));
REAL_DECL(struct dirent64 *, readdir64, (DIR *));
REAL_DECL(int, closedir, (DIR *));
REAL_DECL(void, rewinddir, (DIR *));

int vcam_real_close(int fd) { return REAL(close)(fd); }
ssize_t vcam_real_read(int fd, void *buf, size_t n) { return REAL(read)(fd, buf, n); }
ssize_t vcam_real_write(int fd, const void *buf, size_t n) { return REAL(write)(fd, buf, n); }
void *vcam_real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    return REAL(mmap)(addr, len, prot, flags, fd, off);
}
int vcam_real_munmap(void *addr, size_t len) { return REAL(munmap)(addr, len); }
int vcam_real_open(const char *path, int flags, mode_t mode) { return REAL(open)(path, flags, mode); }
int vcam_real_stat(const char *path, struct stat *st) { return REAL(stat)(path, st); }

// ---- fd table -------------------------------------------------------------------------------------

static struct vcam_open *_Atomic fd_table[VCAM_FD_TABLE_SIZE];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static inline struct vcam_open *lookup(int fd) {
    if ((unsigned)fd >= VCAM_FD_TABLE_SIZE) return NULL;
    return atomic_load_explicit(&fd_table[fd], memory_order_acquire);
}

static int fail(int err) {
    errno = err;
    return -1;
}

// Forgets fd (closed, or about to be replaced by dup2): one reference less on its open file.
static void forget_fd(int fd) {
    pthread_mutex_lock(&table_lock);
    struct vcam_open *op = atomic_exchange(&fd_table[fd], NULL);
    pthread_mutex_unlock(&table_lock);
    if (op) vcam_open_unref(op);
}

static void remember_fd(int fd, struct vcam_open *op) {
    if ((unsigned)fd >= VCAM_FD_TABLE_SIZE) return;
    pthread_mutex_lock(&table_lock);
    atomic_fetch_add(&op->refs, 1);
    struct vcam_open *replaced = atomic_exchange_explicit(&fd_table[fd], op, memory_order_acq_rel);
    pthread_mutex_unlock(&table_lock);
    // The number was closed behind our back (close_range, a raw syscall) and reused by the kernel.
    if (replaced) vcam_open_unref(replaced);
}

// A connected TCP pair stands in for the device file: a real kernel fd, so poll/select/epoll work
// without interposing. One byte per filled buffer makes it readable (POLLIN); an out-of-band byte
// signals a pending event (POLLPRI); a reset reports an unplug (POLLERR|POLLHUP).
static int make_socket_pair(int *app, int *peer) {
    int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (l < 0) return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t alen = sizeof a;
    int c = -1, p = -1;
    if (bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, 1) || getsockname(l, (struct sockaddr *)&a, &alen))
        goto fallback;
    c = socket(AF_INET, SOCK_STREAM, 0);
    if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof a)) goto fallback;
    p = accept4(l, NULL, NULL, SOCK_CLOEXEC);
    if (p < 0) goto fallback;
    REAL(close)(l);
    int one = 1;
    setsockopt(p, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    *app = c;
    *peer = p;
    return 0;
fallback:
    // No loopback network: a UNIX socket pair still gives POLLIN and POLLHUP (no POLLPRI).
    if (c >= 0) REAL(close)(c);
    if (p >= 0) REAL(close)(p);
    REAL(close)(l);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) return -1;
    fcntl(sv[1], F_SETFD, FD_CLOEXEC);
    *app = sv[0];
    *peer = sv[1];
    return 0;
}

static int virtual_open(struct vcam_device *dev, int flags) {
    if (vcam_fault_unplugged(dev)) return fail(ENOENT);
    if (vcam_fault_denied(dev)) return fail(EACCES);
    if ((flags & O_CREAT) && (flags & O_EXCL)) return fail(EEXIST);
    if (flags & O_DIRECTORY) return fail(ENOTDIR);
    vcam_state_attach(dev);
    // A disconnected vivid node stays but cannot be opened while anyone still holds it (ENODEV).
    if (!vcam_reconnect_if_unused(dev)) return fail(ENODEV);
    int app, peer;
    if (make_socket_pair(&app, &peer)) return -1;
    if (app >= VCAM_FD_TABLE_SIZE) {
        REAL(close)(app);
        REAL(close)(peer);
        return fail(EMFILE);
    }
    if (flags & O_NONBLOCK) REAL(fcntl)(app, F_SETFL, O_NONBLOCK);
    if (flags & O_CLOEXEC) REAL(fcntl)(app, F_SETFD, FD_CLOEXEC);
    struct vcam_open *op = calloc(1, sizeof *op);
    if (!op) {
        REAL(close)(app);
        REAL(close)(peer);
        return fail(ENOMEM);
    }
    op->dev = dev;
    op->peer_fd = peer;
    op->prio = V4L2_PRIORITY_DEFAULT;
    vcam_open_started(op);
    op->own_fd = REAL(fcntl)(app, F_DUPFD_CLOEXEC, VCAM_FD_TABLE_SIZE > 1024 ? 1024 : 0);
    if (op->own_fd < 0) op->own_fd = REAL(fcntl)(app, F_DUPFD_CLOEXEC, 0);
    pthread_mutex_lock(&dev->lock);
    vcam_holder_add(dev);
    dev->prio_count[V4L2_PRIORITY_DEFAULT]++;
    op->next = dev->opens;
    dev->opens = op;
    pthread_mutex_unlock(&dev->lock);
    remember_fd(app, op);
    return app;
}

// /sys/dev/char/81:N/uevent for a virtual node: v4l2-compliance and v4l2-ctl read it to learn the
// node type. A fresh memfd per open, so every reader gets its own offset.
static int uevent_minor(const char *path) {
    static const char prefix[] = "/sys/dev/char/81:";
    if (!path || strncmp(path, prefix, sizeof prefix - 1)) return -1;
    char *end;
    long minor = strtol(path + sizeof prefix - 1, &end, 10);
    if (strcmp(end, "/uevent")) return -1;
    return (int)minor;
}

static int open_uevent(const char *path) {
    int minor = uevent_minor(path);
    if (minor < 0) return -2;
    struct vcam_device *dev = vcam_device_for_rdev(makedev(VCAM_VIDEO_MAJOR, minor));
    if (!dev || vcam_fault_unplugged(dev)) return -2;
    int fd = (int)syscall(SYS_memfd_create, "vcam-uevent", 0);
    if (fd < 0) return -1;
    char text[128];
    int n = snprintf(text, sizeof text, "MAJOR=%d\nMINOR=%d\nDEVNAME=%s\n", VCAM_VIDEO_MAJOR, dev->minor, dev->name);
    if (REAL(write)(fd, text, (size_t)n) != n) {
        REAL(close)(fd);
        return fail(EIO);
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

static int open_common(int dirfd, const char *path, int flags, mode_t mode, bool at) {
    if (path && path[0] == '/') {
        struct vcam_device *dev = vcam_device_for_path(path);
        if (dev) return virtual_open(dev, flags);
        if (path[1] == 's') {
            int fd = open_uevent(path);
            if (fd != -2) return fd;
        }
    }
    return at ? REAL(openat)(dirfd, path, flags, mode) : REAL(open)(path, flags, mode);
}

static mode_t mode_arg(int flags, va_list ap) {
    return (flags & (O_CREAT | __O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open_common(AT_FDCWD, path, flags, mode, false);
}

int open64(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open_common(AT_FDCWD, path, flags | O_LARGEFILE, mode, false);
}

int openat(int dirfd, const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open_common(dirfd, path, flags, mode, true);
}

int openat64(int dirfd, const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open_common(dirfd, path, flags | O_LARGEFILE, mode, true);
}

int __open_2(const char *path, int flags) { return open_common(AT_FDCWD, path, flags, 0, false); }
int __open64_2(const char *path, int flags) { return open_common(AT_FDCWD, path, flags | O_LARGEFILE, 0, false); }
int __openat_2(int dirfd, const char *path, int flags) { return open_common(dirfd, path, flags, 0, true); }
int __openat64_2(int dirfd, const char *path, int flags) {
    return open_common(dirfd, path, flags | O_LARGEFILE, 0, true);
}

static FILE *fopen_common(const char *path, const char *mode, bool large) {
    if (path && path[0] == '/' && path[1] == 's') {
        int fd = open_uevent(path);
        if (fd >= 0) return fdopen(fd, "r");
        if (fd == -1) return NULL;
    }
    return large ? REAL(fopen64)(path, mode) : REAL(fopen)(path, mode);
}

FILE *fopen(const char *path, const char *mode) { return fopen_common(path, mode, false); }
FILE *fopen64(const char *path, const char *mode) { return fopen_common(path, mode, true); }

int close(int fd) {
    if (lookup(fd)) forget_fd(fd);
    return REAL(close)(fd);
}

int dup(int fd) {
    int r = REAL(dup)(fd);
    struct vcam_open *op = lookup(fd);
    if (r >= 0 && op) remember_fd(r, op);
    return r;
}

static int dup_to(int old, int new, int flags, bool three) {
    struct vcam_open *op = lookup(old);
    if (old != new && lookup(new)) forget_fd(new);
    int r = three ? REAL(dup3)(old, new, flags) : REAL(dup2)(old, new);
    if (r >= 0 && op && old != new) remember_fd(r, op);
    return r;
}

int dup2(int old, int new) { return dup_to(old, new, 0, false); }
int dup3(int old, int new, int flags) { return dup_to(old, new, flags, true); }

static int fcntl_common(int fd, int cmd, void *arg, bool large) {
    int r = large ? REAL(fcntl64)(fd, cmd, arg) : REAL(fcntl)(fd, cmd, arg);
    if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)) {
        struct vcam_open *op = lookup(fd);
        if (op) remember_fd(r, op);
    }
    return r;
}

int fcntl(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return fcntl_common(fd, cmd, arg, false);
}

int fcntl64(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return fcntl_common(fd, cmd, arg, true);
}

// Whether `fd` is a buffer exported by VIDIOC_EXPBUF (ioctl.c): an open file of a buffer's memfd.
static bool is_exported_buffer(int fd) {
    char path[48], target[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0) return false;
    target[n] = 0;
    return strncmp(target, "/memfd:vcam-buffer", 18) == 0;
}

int ioctl(int fd, unsigned long request, ...) {
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    struct vcam_open *op = lookup(fd);
    if (!op && request == DMA_BUF_IOCTL_SYNC) {
        // A dma-buf's cache sync around each CPU access (GStreamer's dmabuf memory calls it at every map): an
        // exported virtual buffer is plain memory, with nothing to sync.
        int r = REAL(ioctl)(fd, request, arg);
        if (r < 0 && errno == ENOTTY && is_exported_buffer(fd)) return 0;
        return r;
    }
    if (!op || request == FIONBIO || request == FIOCLEX || request == FIONCLEX || request == FIOASYNC)
        return REAL(ioctl)(fd, request, arg);
    int r = vcam_ioctl(op, request, arg);
    return r < 0 ? fail(-r) : r;
}

ssize_t read(int fd, void *buf, size_t n) {
    if (lookup(fd)) return fail(EINVAL);   // no V4L2_CAP_READWRITE, as with vb2 MMAP-only drivers
    return REAL(read)(fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n) {
    if (lookup(fd)) return fail(EINVAL);
    return REAL(write)(fd, buf, n);
}

// ---- buffer mappings --------------------------------------------------------------------------
// Each mapping of a virtual buffer is remembered with the open file it was made through: like a vma,
// it keeps that file alive (vcam_open.refs), so a program may close the fd before unmapping, and it
// counts towards its buffer's V4L2_BUF_FLAG_MAPPED while the buffer still exists.

#define VCAM_MAX_MAPPINGS 256
static struct mapping {
    uintptr_t start, end;      // still mapped: [start, end)
    struct vcam_buffer *buf;   // NULL once the buffer was freed (an orphaned mapping)
    struct vcam_open *op;      // holds one reference
} mappings[VCAM_MAX_MAPPINGS];
static _Atomic int nmappings;
static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;

void vcam_forget_buffer_mappings(struct vcam_buffer *buf) {
    pthread_mutex_lock(&map_lock);
    for (int i = 0; i < VCAM_MAX_MAPPINGS; i++)
        if (mappings[i].buf == buf) mappings[i].buf = NULL;
    pthread_mutex_unlock(&map_lock);
}

// Takes [start, end) out of every remembered mapping; the open files of mappings that are now wholly
// gone are collected in released[] (the caller drops their references outside map_lock, because
// releasing an open takes its device lock, which is taken before map_lock elsewhere). A hole punched in
// the middle of a mapping leaves it remembered whole: the rest of it still holds the file.
static int unmap_range_locked(uintptr_t start, uintptr_t end, struct vcam_open **released) {
    int n = 0;
    for (int i = 0; i < VCAM_MAX_MAPPINGS; i++) {
        struct mapping *m = &mappings[i];
        if (!m->op || end <= m->start || start >= m->end) continue;
        if (start <= m->start && end >= m->end) {
            if (m->buf) atomic_fetch_sub(&m->buf->mappings, 1);
            released[n++] = m->op;
            memset(m, 0, sizeof *m);
            atomic_fetch_sub(&nmappings, 1);
        } else if (start <= m->start) {
            m->start = end;
        } else if (end >= m->end) {
            m->end = start;
        }
    }
    return n;
}

static size_t page_round(size_t len) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (len + page - 1) / page * page;
}

static void unref_all(struct vcam_open **ops, int n) {
    for (int i = 0; i < n; i++) vcam_open_unref(ops[i]);
}

static void *virtual_mmap(struct vcam_open *op, void *addr, size_t len, int prot, int flags, off_t off) {
    struct vcam_device *dev = op->dev;
    pthread_mutex_lock(&dev->lock);
    int err = 0;
    struct vcam_buffer *buf = NULL;
    if (op->dead || vcam_fault_unplugged(dev) || vcam_fault_disconnected(dev)) err = ENODEV;
    else if (!(flags & MAP_SHARED) || !(prot & PROT_READ)) err = EINVAL;
    else {
        for (int i = 0; i < dev->nbuffers; i++)
            if (dev->buffers[i] && (off_t)dev->buffers[i]->v.m.offset == off) buf = dev->buffers[i];
        if (!buf || len == 0 || len > buf->map_length) err = EINVAL;
    }
    void *p = MAP_FAILED;
    if (!err) {
        p = REAL(mmap)(addr, len, prot, flags, buf->memfd, 0);
        if (p == MAP_FAILED) err = errno;
    }
    struct vcam_open *replaced[VCAM_MAX_MAPPINGS];
    int nreplaced = 0;
    if (!err) {
        uintptr_t start = (uintptr_t)p, end = start + page_round(len);
        pthread_mutex_lock(&map_lock);
        // Whatever was mapped there before (MAP_FIXED) is gone now.
        nreplaced = unmap_range_locked(start, end, replaced);
        for (int i = 0; i < VCAM_MAX_MAPPINGS; i++)
            if (!mappings[i].op) {
                mappings[i] = (struct mapping){.start = start, .end = end, .buf = buf, .op = op};
                atomic_fetch_add(&op->refs, 1);
                atomic_fetch_add(&buf->mappings, 1);
                atomic_fetch_add(&nmappings, 1);
                break;
            }
        pthread_mutex_unlock(&map_lock);
    }
    pthread_mutex_unlock(&dev->lock);
    unref_all(replaced, nreplaced);
    if (err) {
        errno = err;
        return MAP_FAILED;
    }
    return p;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    struct vcam_open *op = (flags & MAP_ANONYMOUS) ? NULL : lookup(fd);
    if (op) return virtual_mmap(op, addr, len, prot, flags, off);
    return REAL(mmap)(addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off) {
    struct vcam_open *op = (flags & MAP_ANONYMOUS) ? NULL : lookup(fd);
    if (op) return virtual_mmap(op, addr, len, prot, flags, (off_t)off);
    return REAL(mmap64)(addr, len, prot, flags, fd, off);
}

int munmap(void *addr, size_t len) {
    int r = REAL(munmap)(addr, len);
    if (r != 0 || !atomic_load_explicit(&nmappings, memory_order_relaxed)) return r;
    int saved = errno;
    uintptr_t start = (uintptr_t)addr, end = start + page_round(len);
    struct vcam_open *released[VCAM_MAX_MAPPINGS];
    pthread_mutex_lock(&map_lock);
    int n = unmap_range_locked(start, end, released);
    pthread_mutex_unlock(&map_lock);
    unref_all(released, n);
    errno = saved;
    return r;
}

// ---- stat family ------------------------------------------------------------------------------

static struct timespec node_time;

#define FILL_STAT(st, dev)                                                  \
    do {                                                                    \
        memset((st), 0, sizeof *(st));                                      \
        (st)->st_dev = makedev(0, 5);                                       \
        (st)->st_ino = 1000 + (dev)->minor;                                 \
        (st)->st_mode = S_IFCHR | 0660;                                     \
        (st)->st_nlink = 1;                                                 \
        (st)->st_uid = 0;                                                   \
        (st)->st_gid = 44;                                                  \
        (st)->st_rdev = makedev(VCAM_VIDEO_MAJOR, (dev)->minor);            \
        (st)->st_blksize = 4096;                                            \
        if (!node_time.tv_sec) clock_gettime(CLOCK_REALTIME, &node_time);   \
        (st)->st_atim = (st)->st_mtim = (st)->st_ctim = node_time;          \
    } while (0)

// The device a path names, or NULL; *gone is set when it is virtual but unplugged.
static struct vcam_device *stat_target(const char *path, bool *gone) {
    *gone = false;
    if (!path || path[0] != '/' || path[1] != 'd') return NULL;
    struct vcam_device *dev = vcam_device_for_path(path);
    if (dev && vcam_fault_unplugged(dev)) *gone = true;
    return dev;
}

#define STAT_PATH_BODY(path, st, realcall)           \
    bool gone;                                       \
    struct vcam_device *dev = stat_target(path, &gone); \
    if (gone) return fail(ENOENT);                   \
    if (dev) {                                       \
        FILL_STAT(st, dev);                          \
        return 0;                                    \
    }                                                \
    return realcall

#define STAT_FD_BODY(fd, st, realcall)               \
    struct vcam_open *op = lookup(fd);               \
    if (op) {                                        \
        FILL_STAT(st, op->dev);                      \
        return 0;                                    \
    }                                                \
    return realcall

int stat(const char *path, struct stat *st) { STAT_PATH_BODY(path, st, REAL(stat)(path, st)); }
int stat64(const char *path, struct stat64 *st) { STAT_PATH_BODY(path, st, REAL(stat64)(path, st)); }
int lstat(const char *path, struct stat *st) { STAT_PATH_BODY(path, st, REAL(lstat)(path, st)); }
int lstat64(const char *path, struct stat64 *st) { STAT_PATH_BODY(path, st, REAL(lstat64)(path, st)); }
int fstat(int fd, struct stat *st) { STAT_FD_BODY(fd, st, REAL(fstat)(fd, st)); }
int fstat64(int fd, struct stat64 *st) { STAT_FD_BODY(fd, st, REAL(fstat64)(fd, st)); }
int __xstat(int ver, const char *path, struct stat *st) { STAT_PATH_BODY(path, st, REAL(__xstat)(ver, path, st)); }
int __xstat64(int ver, const char *path, struct stat64 *st) {
    STAT_PATH_BODY(path, st, REAL(__xstat64)(ver, path, st));
}
int __lxstat(int ver, const char *path, struct stat *st) { STAT_PATH_BODY(path, st, REAL(__lxstat)(ver, path, st)); }
int __lxstat64(int ver, const char *path, struct stat64 *st) {
    STAT_PATH_BODY(path, st, REAL(__lxstat64)(ver, path, st));
}
int __fxstat(int ver, int fd, struct stat *st) { STAT_FD_BODY(fd, st, REAL(__fxstat)(ver, fd, st)); }
int __fxstat64(int ver, int fd, struct stat64 *st) { STAT_FD_BODY(fd, st, REAL(__fxstat64)(ver, fd, st)); }

int fstatat(int dirfd, const char *path, struct stat *st, int flags) {
    if ((flags & AT_EMPTY_PATH) && !*path && lookup(dirfd)) return fstat(dirfd, st);
    STAT_PATH_BODY(path, st, REAL(fstatat)(dirfd, path, st, flags));
}
int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags) {
    if ((flags & AT_EMPTY_PATH) && !*path && lookup(dirfd)) return fstat64(dirfd, st);
    STAT_PATH_BODY(path, st, REAL(fstatat64)(dirfd, path, st, flags));
}
int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags) {
    STAT_PATH_BODY(path, st, REAL(__fxstatat)(ver, dirfd, path, st, flags));
}
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st, int flags) {
    STAT_PATH_BODY(path, st, REAL(__fxstatat64)(ver, dirfd, path, st, flags));
}

static void fill_statx(struct statx *stx, struct vcam_device *dev) {
    struct stat st;
    FILL_STAT(&st, dev);
    memset(stx, 0, sizeof *stx);
    stx->stx_mask = STATX_BASIC_STATS;
    stx->stx_blksize = (uint32_t)st.st_blksize;
    stx->stx_nlink = 1;
    stx->stx_uid = st.st_uid;
    stx->stx_gid = st.st_gid;
    stx->stx_mode = (uint16_t)st.st_mode;
    stx->stx_ino = st.st_ino;
    stx->stx_rdev_major = VCAM_VIDEO_MAJOR;
    stx->stx_rdev_minor = (uint32_t)dev->minor;
    stx->stx_dev_major = 0;
    stx->stx_dev_minor = 5;
    stx->stx_atime.tv_sec = stx->stx_mtime.tv_sec = stx->stx_ctime.tv_sec = st.st_mtim.tv_sec;
}

int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *stx) {
    struct vcam_open *op = ((flags & AT_EMPTY_PATH) && !*path) ? lookup(dirfd) : NULL;
    if (op) {
        fill_statx(stx, op->dev);
        return 0;
    }
    bool gone;
    struct vcam_device *dev = stat_target(path, &gone);
    if (gone) return fail(ENOENT);
    if (dev) {
        fill_statx(stx, dev);
        return 0;
    }
    return REAL(statx)(dirfd, path, flags, mask, stx);
}

static int access_virtual(struct vcam_device *dev, int mode) {
    if (vcam_fault_unplugged(dev)) return fail(ENOENT);
    if ((mode & (R_OK | W_OK)) && vcam_fault_denied(dev)) return fail(EACCES);
    if (mode & X_OK) return fail(EACCES);
    return 0;
}

int access(const char *path, int mode) {
    struct vcam_device *dev = vcam_device_for_path(path);
    return dev ? access_virtual(dev, mode) : REAL(access)(path, mode);
}

int faccessat(int dirfd, const char *path, int mode, int flags) {
    struct vcam_device *dev = vcam_device_for_path(path);
    return dev ? access_virtual(dev, mode) : REAL(faccessat)(dirfd, path, mode, flags);
}

// ---- directory listing ------------------------------------------------------------------------
// Listing a directory that holds virtual nodes (normally /dev) appends them after the real entries.

#define VCAM_MAX_DIRS 16
static struct {
    DIR *dir;
    char path[64];
    int next_device;
    struct dirent ent;
    struct dirent64 ent64;
} dirs[VCAM_MAX_DIRS];
static _Atomic int ndirs;
static pthread_mutex_t dir_lock = PTHREAD_MUTEX_INITIALIZER;

static bool holds_virtual_nodes(const char *name, char *norm, size_t size) {
    if (!name || name[0] != '/') return false;
    size_t n = strlen(name);
    while (n > 1 && name[n - 1] == '/') n--;
    if (n >= size) return false;
    memcpy(norm, name, n);
    norm[n] = 0;
    vcam_init();
    for (int i = 0; i < vcam_ndevices; i++) {
        const char *slash = strrchr(vcam_devices[i].path, '/');
        if ((size_t)(slash - vcam_devices[i].path) == n && !strncmp(vcam_devices[i].path, norm, n)) return true;
    }
    return false;
}

DIR *opendir(const char *name) {
    DIR *d = REAL(opendir)(name);
    char norm[64];
    if (d && holds_virtual_nodes(name, norm, sizeof norm)) {
        pthread_mutex_lock(&dir_lock);
        for (int i = 0; i < VCAM_MAX_DIRS; i++)
            if (!dirs[i].dir) {
                dirs[i].dir = d;
                snprintf(dirs[i].path, sizeof dirs[i].path, "%s", norm);
                dirs[i].next_device = 0;
                atomic_fetch_add(&ndirs, 1);
                break;
            }
        pthread_mutex_unlock(&dir_lock);
    }
    return d;
}

// The next virtual node to list after the real entries of slot i, or NULL.
static struct vcam_device *next_virtual_entry(int i) {
    size_t n = strlen(dirs[i].path);
    while (dirs[i].next_device < vcam_ndevices) {
        struct vcam_device *dev = &vcam_devices[dirs[i].next_device++];
        const char *slash = strrchr(dev->path, '/');
        if ((size_t)(slash - dev->path) != n || strncmp(dev->path, dirs[i].path, n)) continue;
        struct stat st;
        if (REAL(lstat)(dev->path, &st) == 0) continue;   // a real node of that name is listed already
        if (vcam_fault_unplugged(dev)) continue;
        return dev;
    }
    return NULL;
}

static int dir_slot(DIR *d) {
    if (!atomic_load_explicit(&ndirs, memory_order_relaxed)) return -1;
    for (int i = 0; i < VCAM_MAX_DIRS; i++)
        if (dirs[i].dir == d) return i;
    return -1;
}

struct dirent *readdir(DIR *d) {
    struct dirent *e = REAL(readdir)(d);
    if (e) return e;
    int saved = errno;
    pthread_mutex_lock(&dir_lock);
    int i = dir_slot(d);
    struct dirent *out = NULL;
    struct vcam_device *dev = i >= 0 ? next_virtual_entry(i) : NULL;
    if (dev) {
        memset(&dirs[i].ent, 0, sizeof dirs[i].ent);
        dirs[i].ent.d_ino = 1000 + (ino_t)dev->minor;
        dirs[i].ent.d_type = DT_CHR;
        dirs[i].ent.d_reclen = sizeof dirs[i].ent;
        snprintf(dirs[i].ent.d_name, sizeof dirs[i].ent.d_name, "%s", dev->name);
        out = &dirs[i].ent;
    }
    pthread_mutex_unlock(&dir_lock);
    errno = saved;
    return out;
}

struct dirent64 *readdir64(DIR *d) {
    struct dirent64 *e = REAL(readdir64)(d);
    if (e) return e;
    int saved = errno;
    pthread_mutex_lock(&dir_lock);
    int i = dir_slot(d);
    struct dirent64 *out = NULL;
    struct vcam_device *dev = i >= 0 ? next_virtual_entry(i) : NULL;
    if (dev) {
        memset(&dirs[i].ent64, 0, sizeof dirs[i].ent64);
        dirs[i].ent64.d_ino = 1000 + (ino64_t)dev->minor;
        dirs[i].ent64.d_type = DT_CHR;
        dirs[i].ent64.d_reclen = sizeof dirs[i].ent64;
        snprintf(dirs[i].ent64.d_name, sizeof dirs[i].ent64.d_name, "%s", dev->name);
        out = &dirs[i].ent64;
    }
    pthread_mutex_unlock(&dir_lock);
    errno = saved;
    return out;
}

void rewinddir(DIR *d) {
    pthread_mutex_lock(&dir_lock);
    int i = dir_slot(d);
    if (i >= 0) dirs[i].next_device = 0;
    pthread_mutex_unlock(&dir_lock);
    REAL(rewinddir)(d);
}

int closedir(DIR *d) {
    pthread_mutex_lock(&dir_lock);
    int i = dir_slot(d);
    if (i >= 0) {
        dirs[i].dir = NULL;
        atomic_fetch_sub(&ndirs, 1);
    }
    pthread_mutex_unlock(&dir_lock);
    return REAL(closedir)(d);
}

// ---- the rest of what tools do with a node path -------------------------------------------------
// ls asks for extended attributes, realpath and v4l2-ctl resolve links: a virtual node is a plain
// character device with no attributes and no link.

REAL_DECL(ssize_t, readlink, (const char *, char *, size_t));
REAL_DECL(char *, realpath, (const char *, char *));
REAL_DECL(ssize_t, getxattr, (const char *, const char *, void *, size_t));
REAL_DECL(ssize_t, lgetxattr, (const char *, const char *, void *, size_t));
REAL_DECL(ssize_t, listxattr, (const char *, char *, size_t));
REAL_DECL(ssize_t, llistxattr, (const char *, char *, size_t));

static struct vcam_device *present_device(const char *path, int *err) {
    bool gone;
    struct vcam_device *dev = stat_target(path, &gone);
    *err = gone ? ENOENT : 0;
    return gone ? NULL : dev;
}

ssize_t readlink(const char *path, char *buf, size_t size) {
    int err;
    struct vcam_device *dev = present_device(path, &err);
    if (err) return fail(err);
    if (dev) return fail(EINVAL);
    return REAL(readlink)(path, buf, size);
}

char *realpath(const char *path, char *resolved) {
    int err;
    struct vcam_device *dev = present_device(path, &err);
    if (err) {
        errno = err;
        return NULL;
    }
    if (!dev) return REAL(realpath)(path, resolved);
    char *out = resolved ? resolved : malloc(PATH_MAX);
    if (!out) return NULL;
    snprintf(out, PATH_MAX, "%s", dev->path);
    return out;
}

static ssize_t no_xattr(const char *path, bool *handled) {
    int err;
    struct vcam_device *dev = present_device(path, &err);
    *handled = err || dev;
    if (err) return fail(err);
    return dev ? fail(ENODATA) : 0;
}

ssize_t getxattr(const char *path, const char *name, void *value, size_t size) {
    bool handled;
    ssize_t r = no_xattr(path, &handled);
    return handled ? r : REAL(getxattr)(path, name, value, size);
}

ssize_t lgetxattr(const char *path, const char *name, void *value, size_t size) {
    bool handled;
    ssize_t r = no_xattr(path, &handled);
    return handled ? r : REAL(lgetxattr)(path, name, value, size);
}

ssize_t listxattr(const char *path, char *list, size_t size) {
    bool handled;
    ssize_t r = no_xattr(path, &handled);
    if (handled) return r == -1 && errno == ENODATA ? 0 : r;
    return REAL(listxattr)(path, list, size);
}

ssize_t llistxattr(const char *path, char *list, size_t size) {
    bool handled;
    ssize_t r = no_xattr(path, &handled);
    if (handled) return r == -1 && errno == ENODATA ? 0 : r;
    return REAL(llistxattr)(path, list, size);
}
