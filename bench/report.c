/* The text table and the CSV: the same columns in the same order. */
#include <errno.h>
#include <string.h>

#include "bench_internal.h"

void sgb_size_name(size_t n, char *buf, size_t len) {
    if (n >= (1u << 30) && n % (1u << 30) == 0)
        snprintf(buf, len, "%zuG", n >> 30);
    else if (n >= (1u << 20) && n % (1u << 20) == 0)
        snprintf(buf, len, "%zuM", n >> 20);
    else if (n >= (1u << 10) && n % (1u << 10) == 0)
        snprintf(buf, len, "%zuK", n >> 10);
    else
        snprintf(buf, len, "%zu", n);
}

static const char *const sgb_cols[] = {"dtype", "n",         "threads", "isa",        "kernel",
                                       "cache", "median_us", "gbps",    "bound_gbps", "bound",
                                       "ratio", "loop_gbps", "speedup"};

void sgb_table_header(FILE *f) {
    fprintf(f, "%-5s %6s %3s %-10s %-24s %-5s %11s %8s %8s %-15s %6s %8s %7s\n", "dtype", "n",
            "thr", "isa", "kernel", "cache", "median_us", "GB/s", "bound", "bound_kind", "ratio",
            "loop", "speedup");
}

void sgb_table_row(FILE *f, const sgb_row *r) {
    char n[32];
    sgb_size_name(r->n, n, sizeof n);
    fprintf(f, "%-5s %6s %3u %-10s %-24s %-5s %11.2f %8.2f %8.2f %-15s %6.3f %8.2f %7.2f\n",
            selugrad_dtype_name(r->dtype), n, r->threads, r->isa, r->kernel, r->cache, r->us,
            r->gbps, r->bound_gbps, r->bound_kind, r->ratio, r->loop_gbps, r->speedup);
    fflush(f);
}

int sgb_write_csv(const char *prog, const char *path, const sgb_row *rows, size_t nrows) {
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(errno));
        return -1;
    }
    for (size_t c = 0; c < sizeof sgb_cols / sizeof sgb_cols[0]; c++)
        fprintf(f, "%s%s", c ? "," : "", sgb_cols[c]);
    fputc('\n', f);
    for (size_t i = 0; i < nrows; i++) {
        const sgb_row *r = &rows[i];
        fprintf(f, "%s,%zu,%u,%s,%s,%s,%.3f,%.3f,%.3f,%s,%.4f,%.3f,%.4f\n",
                selugrad_dtype_name(r->dtype), r->n, r->threads, r->isa, r->kernel, r->cache, r->us,
                r->gbps, r->bound_gbps, r->bound_kind, r->ratio, r->loop_gbps, r->speedup);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", prog, path);
        return -1;
    }
    return 0;
}
