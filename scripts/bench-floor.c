// scripts/bench-floor.swift's twin in C for scripts/bench's "floor" row: prints a line a second for the seconds
// its argument names.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int seconds = argc > 1 ? atoi(argv[1]) : 3;
    for (int line = 1; line <= seconds; line++) {
        sleep(1);
        printf("line %d at %d s\n", line, line);
        fflush(stdout);
    }
    return 0;
}
