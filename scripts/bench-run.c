// Runs one command for scripts/bench and writes what it cost to a file: wall time, peak memory, CPU time.
// Usage: bench-run RESULT-FILE COMMAND [ARGUMENT ...]; RESULT-FILE gets "WALL_S MAXRSS_KIB CPU_S EXIT_STATUS".
// BENCH_RUN_PRELOAD, when set, becomes the command's LD_PRELOAD (the virtual camera: not loaded in here).
// Why a C program between the bench and the command: a process's peak memory (ru_maxrss) starts at that of the
// process it was forked from — Python's 18 MiB when the bench forked the command itself, which hid the real
// figure of anything smaller (v4l2-ctl's 4.6 MiB read as 18). Forked from this program it starts near 1 MiB.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timespec t) { return t.tv_sec + t.tv_nsec / 1e9; }

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: bench-run RESULT-FILE COMMAND [ARGUMENT ...]\n");
        return 64;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t child = fork();
    if (child < 0) {
        perror("bench-run: fork");
        return 1;
    }
    if (child == 0) {
        const char *preload = getenv("BENCH_RUN_PRELOAD");
        if (preload) setenv("LD_PRELOAD", preload, 1);
        unsetenv("BENCH_RUN_PRELOAD");
        execvp(argv[2], argv + 2);
        fprintf(stderr, "bench-run: cannot run %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage usage;
    while (wait4(child, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            perror("bench-run: wait4");
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    FILE *result = fopen(argv[1], "w");
    if (!result) {
        fprintf(stderr, "bench-run: cannot write %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
    fprintf(result, "%.6f %ld %.6f %d\n", seconds(end) - seconds(start), usage.ru_maxrss, cpu, exit_status);
    fclose(result);
    return exit_status;
}
