// epoll_wait/epoll_pwait: a device that goes away reports POLLERR|POLLHUP|POLLPRI at once, as v4l2_poll does
// for an unregistered node. The app's fd is a TCP socket, which can only learn this in two steps (the urgent
// byte that raises POLLPRI, then the reset that raises POLLERR|POLLHUP), and an epoll waiter woken by the
// first may look before the second has landed (microseconds later). When a wakeup shows POLLPRI without
// POLLERR while one of the devices this process has open is disconnected or unplugged, the events are read
// again a moment later, so the waiter sees both together. poll and select need no help: POLLPRI alone
// already sends them to an ioctl, which fails with ENODEV.
#include "vcam.h"

#include <dlfcn.h>
#include <signal.h>
#include <sys/epoll.h>
#include <unistd.h>

typedef int (*epoll_wait_fn)(int, struct epoll_event *, int, int);
typedef int (*epoll_pwait_fn)(int, struct epoll_event *, int, int, const sigset_t *);

static bool device_going_away(void) {
    for (int i = 0; i < vcam_ndevices; i++) {
        struct vcam_device *dev = &vcam_devices[i];
        if (!dev->opens || !atomic_load(&dev->attached)) continue;
        if (vcam_fault_disconnected(dev) || vcam_fault_unplugged(dev)) return true;
    }
    return false;
}

static bool needs_second_look(const struct epoll_event *events, int n) {
    for (int i = 0; i < n; i++)
        if ((events[i].events & EPOLLPRI) && !(events[i].events & (EPOLLERR | EPOLLHUP))) return device_going_away();
    return false;
}

// Adds what a second, non-blocking look at the same epoll set reports for the events already returned.
static void merge_second_look(int epfd, struct epoll_event *events, int n, epoll_wait_fn real_wait) {
    usleep(2000);   // the reset follows the urgent byte within microseconds
    struct epoll_event again[64];
    int m = real_wait(epfd, again, n < 64 ? n : 64, 0);
    for (int j = 0; j < m; j++)
        for (int i = 0; i < n; i++)
            if (events[i].data.u64 == again[j].data.u64) events[i].events |= again[j].events;
}

static epoll_wait_fn real_epoll_wait_fn(void) {
    static epoll_wait_fn fn;
    if (!fn) fn = (epoll_wait_fn)dlsym(RTLD_NEXT, "epoll_wait");
    return fn;
}

int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    int n = real_epoll_wait_fn()(epfd, events, maxevents, timeout);
    if (n > 0 && vcam_ndevices && needs_second_look(events, n)) merge_second_look(epfd, events, n, real_epoll_wait_fn());
    return n;
}

int epoll_pwait(int epfd, struct epoll_event *events, int maxevents, int timeout, const sigset_t *sigmask) {
    static epoll_pwait_fn real;
    if (!real) real = (epoll_pwait_fn)dlsym(RTLD_NEXT, "epoll_pwait");
    int n = real(epfd, events, maxevents, timeout, sigmask);
    if (n > 0 && vcam_ndevices && needs_second_look(events, n)) merge_second_look(epfd, events, n, real_epoll_wait_fn());
    return n;
}
