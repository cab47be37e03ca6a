/* Option parsing shared by the subcommands: --key=value, comma lists, dtypes and shapes. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "selugrad %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'selugrad %s --help'.\n", cmd);
    return CLI_USAGE;
}

/* Every option of the subcommands that takes a value (their sg_argv_opt keys; CTest
   cli_value_keys_listed checks the list against the sources): the first pass's keys. */
static const char *const cli_value_keys[] = {
    "--cores",   "--dtype",   "--gradInput", "--gradOutput", "--gradients", "--grad",  "--ids",
    "--isa",     "--op",      "--output",    "--outputs",    "--out",       "--range", "--report",
    "--result",  "--seed",    "--self",      "--shape",      "--shapes",    "--show",  "--soc",
    "--strides", "--threads", "--ub",        "--x",          "-o",          NULL};

int cli_begin(const char *cmd, int argc, char **argv, const char *help) {
    static const char *const flags[] = {"--json", "--f64", "--help", NULL};
    static const char *const short_values[] = {"-o", NULL};
    int at = 0;
    switch (sg_argv_first_pass(argc, argv, flags, short_values, cli_value_keys, &at)) {
    case SG_ARGV_HELP:
        return fputs(help, stdout), 0;
    case SG_ARGV_NO_VALUE:
        return cli_usage_error(cmd, "%s needs a value", argv[at]);
    case SG_ARGV_UNKNOWN:
        return cli_usage_error(cmd, "unknown argument '%s'", argv[at]);
    default:
        return -1;
    }
}

int cli_parse_i64(const char *s, int64_t *v) {
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (s[0] == '\0' || *end != '\0' || errno != 0) return -1;
    *v = (int64_t)x;
    return 0;
}

int cli_parse_double(const char *s, double *v) {
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (s[0] == '\0' || *end != '\0') return -1;
    *v = x;
    return 0;
}

int cli_split(const char *s, char sep, char out[][64], int max, int *count) {
    int n = 0;
    const char *p = s;
    for (;;) {
        const char *q = strchr(p, sep);
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (n == max || len >= 64) return -1;
        memcpy(out[n], p, len);
        out[n][len] = '\0';
        n++;
        if (!q) break;
        p = q + 1;
    }
    *count = n;
    return 0;
}

const char cli_why_negative_dim[] = "a negative dim";

const char *cli_shape_why(const char *s, size_t *rank, int64_t *dims, int allow_neg) {
    if (strcmp(s, "scalar") == 0) {
        *rank = 0;
        return NULL;
    }
    if (s[0] == '\0') return "empty (rank 0 is 'scalar')";
    size_t r = 0;
    const char *p = s;
    for (;;) {
        if (!isdigit((unsigned char)p[0]) && !(p[0] == '-' && isdigit((unsigned char)p[1])))
            return "dims are integers joined by 'x'";
        if (r == CLI_MAX_RANK) return "more than 16 dims";
        char *end;
        errno = 0;
        long long d = strtoll(p, &end, 10);
        if (errno != 0) return "a dim does not fit in int64";
        if (d < 0 && !allow_neg) return cli_why_negative_dim;
        if (d < -2) return "a dim below -2 (-1: unknown dim, -2: unknown rank)";
        dims[r++] = (int64_t)d;
        if (*end == '\0') break;
        if (*end != 'x' && *end != ',') return "dims are integers joined by 'x'";
        p = end + 1;
    }
    *rank = r;
    return NULL;
}

int cli_parse_shape(const char *s, size_t *rank, int64_t *dims, int allow_neg) {
    return cli_shape_why(s, rank, dims, allow_neg) ? -1 : 0;
}

void cli_shape_str(size_t rank, const int64_t *dims, char *buf, size_t len) {
    size_t used = 0;
    if (len == 0) return;
    buf[0] = '\0';
    if (rank == 0) {
        snprintf(buf, len, "scalar");
        return;
    }
    for (size_t i = 0; i < rank && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%lld", i ? "x" : "", (long long)dims[i]);
        if (w < 0) return;
        used += (size_t)w;
    }
}

size_t cli_shape_count(size_t rank, const int64_t *dims) {
    for (size_t i = 0; i < rank; i++)
        if (dims[i] == 0) return 0;
    size_t n = 1;
    for (size_t i = 0; i < rank; i++) {
        if ((size_t)dims[i] > SIZE_MAX / n) return SIZE_MAX; /* too large for any buffer */
        n *= (size_t)dims[i];
    }
    return n;
}
