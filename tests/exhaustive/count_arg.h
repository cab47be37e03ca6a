/*
 * The one option of the exhaustive programs: --KEY=N, N a whole number in [1, max] (a step or a
 * count of rows), default when absent. Anything else prints the usage and is exit status 2.
 */
#ifndef SELUGRAD_TESTS_EXHAUSTIVE_COUNT_ARG_H
#define SELUGRAD_TESTS_EXHAUSTIVE_COUNT_ARG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sets *value from argv (key without the dashes, e.g. "step"); returns 0, or 2 after the usage. */
static inline int sg_count_arg(int argc, char **argv, const char *key, uint64_t max,
                               uint64_t *value) {
    size_t len = strlen(key);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) == 0 && strncmp(a + 2, key, len) == 0 && a[2 + len] == '=' &&
            a[3 + len] >= '0' && a[3 + len] <= '9') {
            char *end;
            unsigned long long v = strtoull(a + 3 + len, &end, 10);
            if (*end == '\0' && v >= 1 && v <= max) {
                *value = v;
                continue;
            }
        }
        fprintf(stderr, "usage: %s [--%s=N]   (1 <= N <= %llu)\n", argv[0], key,
                (unsigned long long)max);
        return 2;
    }
    return 0;
}

#endif /* SELUGRAD_TESTS_EXHAUSTIVE_COUNT_ARG_H */
