// Cross-process device state (controls, queue owner) and fault injection, both kept in the state
// directory: $VCAM_STATE_DIR (default /dev/shm/vcam-<uid>)/<device name>/.
#include "vcam.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define VCAM_SHARED_MAGIC 0x76436171u   // changes whenever struct vcam_shared changes meaning

static void attach(struct vcam_device *dev);

static void make_dirs(char *path) {
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(path, 0777);
        *p = '/';
    }
    mkdir(path, 0777);
}

void vcam_state_locate(struct vcam_device *dev) {
    const char *root = getenv("VCAM_STATE_DIR");
    char def[64];
    if (!root || !*root) {
        snprintf(def, sizeof def, "/dev/shm/vcam-%u", (unsigned)getuid());
        root = def;
    }
    snprintf(dev->state_dir, sizeof dev->state_dir, "%s/%s", root, dev->name);
}

// Maps the device's shared state on first use (first open), so a program that never opens a virtual
// device leaves no trace in the state directory.
static pthread_mutex_t attach_lock = PTHREAD_MUTEX_INITIALIZER;

void vcam_state_attach(struct vcam_device *dev) {
    if (atomic_load_explicit(&dev->attached, memory_order_acquire)) return;
    pthread_mutex_lock(&attach_lock);
    if (!atomic_load(&dev->attached)) {
        attach(dev);
        atomic_store_explicit(&dev->attached, true, memory_order_release);
    }
    pthread_mutex_unlock(&attach_lock);
}

static void attach(struct vcam_device *dev) {
    make_dirs(dev->state_dir);

    char path[256];
    snprintf(path, sizeof path, "%s/state", dev->state_dir);
    int fd = vcam_real_open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    struct vcam_shared *sh = NULL;
    if (fd >= 0) {
        struct stat st;
        if (fstat(fd, &st) == 0 && (size_t)st.st_size < sizeof *sh) {
            if (ftruncate(fd, sizeof *sh) != 0) { /* mapped below anyway; a short file fails the mmap */ }
        }
        void *p = vcam_real_mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        vcam_real_close(fd);
        if (p != MAP_FAILED) sh = p;
    }
    if (!sh) {
        // No usable state directory: keep the state private to this process rather than fail.
        fprintf(stderr, "vcam: cannot use state directory %s (%s); state is not shared\n", dev->state_dir, strerror(errno));
        sh = vcam_real_mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (sh == MAP_FAILED) abort();
    }
    dev->shared = sh;
    for (int spins = 0;; spins++) {
        uint32_t r = atomic_load(&sh->ready);
        if (r == VCAM_SHARED_MAGIC) break;
        uint32_t expect = r;
        if ((r != 1 || spins > 2000) && atomic_compare_exchange_strong(&sh->ready, &expect, 1)) {
            atomic_store(&sh->owner_pid, 0);
            for (int i = 0; i < VCAM_MAX_HOLDERS; i++) atomic_store(&sh->holder_pid[i], 0), atomic_store(&sh->holder_opens[i], 0);
            for (int i = 0; i < 5; i++) atomic_store(&sh->format[i], 0);
            vcam_controls_init_shared(dev);
            atomic_store(&sh->ready, VCAM_SHARED_MAGIC);
            break;
        }
        usleep(500);
    }
}

static bool state_file_exists(struct vcam_device *dev, const char *name) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dev->state_dir, name);
    struct stat st;
    return vcam_real_stat(path, &st) == 0;
}

static int read_state_file(struct vcam_device *dev, const char *name, char *buf, size_t size) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dev->state_dir, name);
    int fd = vcam_real_open(path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) return -1;
    ssize_t n = vcam_real_read(fd, buf, size - 1);
    vcam_real_close(fd);
    if (n < 0) return -1;
    buf[n] = 0;
    return (int)n;
}

bool vcam_fault_unplugged(struct vcam_device *dev) { return state_file_exists(dev, "unplugged"); }
bool vcam_fault_denied(struct vcam_device *dev) { return state_file_exists(dev, "deny"); }
bool vcam_fault_stalled(struct vcam_device *dev) { return state_file_exists(dev, "stall"); }
bool vcam_fault_disconnected(struct vcam_device *dev) { return state_file_exists(dev, "disconnected"); }

// vivid's disconnect: every open file handle fails from now on, the node stays, and the device comes
// back when the last handle (of any process) is closed. The `disconnected` file carries it across
// processes.
void vcam_disconnect(struct vcam_device *dev) {
    char path[256];
    snprintf(path, sizeof path, "%s/disconnected", dev->state_dir);
    int fd = vcam_real_open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd >= 0) vcam_real_close(fd);
}

int vcam_fault_drop_percent(struct vcam_device *dev) {
    char buf[32];
    if (read_state_file(dev, "drop", buf, sizeof buf) <= 0) return 0;
    int pct = atoi(buf);
    return pct < 0 ? 0 : pct > 100 ? 100 : pct;
}

static const struct { const char *name; unsigned long request; } ioctl_names[] = {
    {"QUERYCAP", VIDIOC_QUERYCAP}, {"ENUM_FMT", VIDIOC_ENUM_FMT}, {"G_FMT", VIDIOC_G_FMT},
    {"S_FMT", VIDIOC_S_FMT}, {"TRY_FMT", VIDIOC_TRY_FMT}, {"REQBUFS", VIDIOC_REQBUFS},
    {"QUERYBUF", VIDIOC_QUERYBUF}, {"QBUF", VIDIOC_QBUF}, {"DQBUF", VIDIOC_DQBUF},
    {"STREAMON", VIDIOC_STREAMON}, {"STREAMOFF", VIDIOC_STREAMOFF}, {"G_PARM", VIDIOC_G_PARM},
    {"S_PARM", VIDIOC_S_PARM}, {"G_CTRL", VIDIOC_G_CTRL}, {"S_CTRL", VIDIOC_S_CTRL},
    {"QUERYCTRL", VIDIOC_QUERYCTRL}, {"QUERY_EXT_CTRL", VIDIOC_QUERY_EXT_CTRL},
    {"QUERYMENU", VIDIOC_QUERYMENU}, {"G_EXT_CTRLS", VIDIOC_G_EXT_CTRLS},
    {"S_EXT_CTRLS", VIDIOC_S_EXT_CTRLS}, {"TRY_EXT_CTRLS", VIDIOC_TRY_EXT_CTRLS},
    {"ENUM_FRAMESIZES", VIDIOC_ENUM_FRAMESIZES}, {"ENUM_FRAMEINTERVALS", VIDIOC_ENUM_FRAMEINTERVALS},
    {"CREATE_BUFS", VIDIOC_CREATE_BUFS}, {"EXPBUF", VIDIOC_EXPBUF}, {"ENUMINPUT", VIDIOC_ENUMINPUT},
    {"G_INPUT", VIDIOC_G_INPUT}, {"S_INPUT", VIDIOC_S_INPUT}, {"DQEVENT", VIDIOC_DQEVENT},
    {"SUBSCRIBE_EVENT", VIDIOC_SUBSCRIBE_EVENT}, {"UNSUBSCRIBE_EVENT", VIDIOC_UNSUBSCRIBE_EVENT},
    {"G_SELECTION", VIDIOC_G_SELECTION}, {"S_SELECTION", VIDIOC_S_SELECTION},
    {"G_PRIORITY", VIDIOC_G_PRIORITY}, {"S_PRIORITY", VIDIOC_S_PRIORITY},
};

static const struct { const char *name; int value; } errno_names[] = {
    {"EIO", EIO}, {"ENODEV", ENODEV}, {"EBUSY", EBUSY}, {"EINVAL", EINVAL}, {"ENOMEM", ENOMEM},
    {"EAGAIN", EAGAIN}, {"ETIMEDOUT", ETIMEDOUT}, {"EPIPE", EPIPE}, {"ENOSPC", ENOSPC},
    {"EACCES", EACCES}, {"EPERM", EPERM}, {"ENOENT", ENOENT}, {"EFAULT", EFAULT}, {"ENXIO", ENXIO},
    {"EPROTO", EPROTO}, {"ERANGE", ERANGE}, {"ENOTTY", ENOTTY}, {"EINTR", EINTR},
};

// "fail-ioctl" holds "<ioctl> <errno>", e.g. "DQBUF EIO" or "VIDIOC_S_CTRL 16"; it is used up by the
// first matching ioctl of any process (whoever unlinks the file applies the failure).
int vcam_fault_take_ioctl_failure(struct vcam_device *dev, unsigned long request) {
    char buf[128];
    if (read_state_file(dev, "fail-ioctl", buf, sizeof buf) <= 0) return 0;
    char name[64], err[32];
    if (sscanf(buf, "%63s %31s", name, err) != 2) return 0;
    const char *n = strncasecmp(name, "VIDIOC_", 7) ? name : name + 7;
    unsigned long want = 0;
    for (size_t i = 0; i < sizeof ioctl_names / sizeof ioctl_names[0]; i++)
        if (!strcasecmp(n, ioctl_names[i].name)) want = ioctl_names[i].request;
    if (!want) want = strtoul(name, NULL, 0);
    if (want != request && strcasecmp(n, "ANY")) return 0;
    int e = atoi(err);
    for (size_t i = 0; i < sizeof errno_names / sizeof errno_names[0]; i++)
        if (!strcasecmp(err, errno_names[i].name)) e = errno_names[i].value;
    if (e <= 0) e = EIO;
    char path[256];
    snprintf(path, sizeof path, "%s/fail-ioctl", dev->state_dir);
    if (unlink(path) != 0) return 0;   // another process took it first
    return e;
}

static bool process_alive(int pid) { return kill(pid, 0) == 0 || errno == EPERM; }

// ---- who has the device open (across processes), for the reconnect after the last close ----------

void vcam_holder_add(struct vcam_device *dev) {
    struct vcam_shared *sh = dev->shared;
    int me = getpid();
    for (int i = 0; i < VCAM_MAX_HOLDERS; i++)
        if (atomic_load(&sh->holder_pid[i]) == me) {
            atomic_fetch_add(&sh->holder_opens[i], 1);
            return;
        }
    for (int i = 0; i < VCAM_MAX_HOLDERS; i++) {
        int cur = atomic_load(&sh->holder_pid[i]);
        if (cur && process_alive(cur)) continue;
        if (atomic_compare_exchange_strong(&sh->holder_pid[i], &cur, me)) {
            atomic_store(&sh->holder_opens[i], 1);
            return;
        }
    }
    // More than VCAM_MAX_HOLDERS processes: this one is not counted, so it cannot delay a reconnect.
}

void vcam_holder_remove(struct vcam_device *dev) {
    struct vcam_shared *sh = dev->shared;
    int me = getpid();
    for (int i = 0; i < VCAM_MAX_HOLDERS; i++)
        if (atomic_load(&sh->holder_pid[i]) == me) {
            if (atomic_fetch_sub(&sh->holder_opens[i], 1) <= 1) atomic_store(&sh->holder_pid[i], 0);
            return;
        }
}

// Ends a disconnect once no live process has the device open; true if the device is connected now.
bool vcam_reconnect_if_unused(struct vcam_device *dev) {
    if (!vcam_fault_disconnected(dev)) return true;
    struct vcam_shared *sh = dev->shared;
    for (int i = 0; i < VCAM_MAX_HOLDERS; i++) {
        int pid = atomic_load(&sh->holder_pid[i]);
        if (pid && atomic_load(&sh->holder_opens[i]) > 0 && process_alive(pid)) return false;
    }
    char path[256];
    snprintf(path, sizeof path, "%s/disconnected", dev->state_dir);
    unlink(path);
    return true;
}

bool vcam_claim_owner(struct vcam_device *dev) {
    int me = getpid();
    for (;;) {
        int cur = atomic_load(&dev->shared->owner_pid);
        if (cur == me) return true;
        if (cur != 0 && process_alive(cur)) return false;
        if (atomic_compare_exchange_strong(&dev->shared->owner_pid, &cur, me)) return true;
    }
}

void vcam_release_owner(struct vcam_device *dev) {
    int me = getpid();
    atomic_compare_exchange_strong(&dev->shared->owner_pid, &me, 0);
}
