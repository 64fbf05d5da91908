// What parsing a pipeline description costs (scripts/parse-timing, docs/benchmarks.md): each argument pair is
// a label ("pipeline:NAME" parsed as gst_parse_launch does, "bin:NAME" as a branch, with ghost pads) and a
// description; each is parsed once to load its plugins, then ROUNDS times, and the mean CPU time of one parse
// (the process's, CLOCK_PROCESS_CPUTIME_ID) is printed. Parsing opens no device: no camera is needed.
#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static GstElement *parse(const char *label, const char *description, GError **error) {
    if (strncmp(label, "bin:", 4) == 0) return gst_parse_bin_from_description(description, TRUE, error);
    return gst_parse_launch(description, error);
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    int rounds = getenv("ROUNDS") ? atoi(getenv("ROUNDS")) : 30;
    if (argc < 3 || argc % 2 == 0 || rounds < 1) {
        fprintf(stderr, "usage: parse-timing {pipeline:|bin:}LABEL DESCRIPTION ...\n");
        return 64;
    }
    for (int a = 1; a + 1 < argc; a += 2) {
        GError *error = NULL;
        GstElement *element = parse(argv[a], argv[a + 1], &error);
        if (!element) {
            fprintf(stderr, "%s: %s\n", argv[a], error ? error->message : "no element");
            return 1;
        }
        gst_object_unref(element);
        double start = cpu_ms();
        for (int i = 0; i < rounds; i++) gst_object_unref(parse(argv[a], argv[a + 1], NULL));
        printf("%8.2f ms  %s\n", (cpu_ms() - start) / rounds, argv[a] + (strncmp(argv[a], "bin:", 4) == 0 ? 4 : 9));
    }
    return 0;
}
