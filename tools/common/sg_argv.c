#include "sg_argv.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/dtype.h"

int sg_argv_opt(int argc, char **argv, int *i, const char *key, const char **value) {
    const char *arg = argv[*i];
    size_t k = strlen(key);
    if (strncmp(arg, key, k) != 0) return 0;
    if (arg[k] == '=') {
        *value = arg + k + 1;
        return 1;
    }
    if (arg[k] == '\0') {
        *value = *i + 1 < argc ? argv[++*i] : "";
        return 1;
    }
    return 0;
}

static int sg_argv_listed(const char *arg, const char *const *list) {
    for (; list != NULL && *list != NULL; list++)
        if (strcmp(arg, *list) == 0) return 1;
    return 0;
}

static int sg_argv_takes_value(const char *arg, const char *const *flags,
                               const char *const *short_values) {
    if (sg_argv_listed(arg, short_values)) return 1;
    if (strncmp(arg, "--", 2) != 0 || strchr(arg, '=') != NULL) return 0;
    return !sg_argv_listed(arg, flags);
}

sg_argv_first sg_argv_first_pass(int argc, char **argv, const char *const *flags,
                                 const char *const *short_values, const char *const *keys,
                                 int *at) {
    for (int i = 1; i < argc; i++) {
        if (sg_argv_takes_value(argv[i], flags, short_values)) {
            if (i + 1 == argc) {
                *at = i;
                return sg_argv_listed(argv[i], keys) ? SG_ARGV_NO_VALUE : SG_ARGV_UNKNOWN;
            }
            i++; /* a value, even "-h" or "--help" */
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            *at = i;
            return SG_ARGV_HELP;
        }
    }
    return SG_ARGV_GO;
}

int sg_argv_dtype(const char *s, selugrad_dtype *dt) {
    return sg_dtype_parse(s, dt);
}

double sg_argv_available_memory(void) {
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    double kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kib) == 1) break;
    if (f) fclose(f);
    if (kib > 0) return kib * 1024.0;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : 0;
}
