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

/* The columns, in order: their names (the text table's header, the CSV's first line) and what
   they mean (--help). */
static const struct {
    const char *name, *meaning;
} sgb_cols[] = {
    {"dtype", "element type"},
    {"n", "elements per call (K/M/G = 2^10/2^20/2^30 in the table)"},
    {"threads", "what selugrad_set_num_threads was given (--threads)"},
    {"threads_used", "the threads the timed calls really ran on, counted per call (the mean,\n"
                     "rounded); a call below its kernel's per-thread traffic runs on the\n"
                     "calling thread alone"},
    {"isa", "the --isa cap, or auto (the library's own dispatch)"},
    {"kernel", "the kernel that ran"},
    {"cache", "hot (n <= 1M: inputs in cache) or cold (from DRAM); with --omp also\n"
              "omp-alone, omp-pool, omp-hook: a call alone, right after an OpenMP region\n"
              "through the own pool, through the host hook (bound_gbps: the call alone;\n"
              "ratio: alone time / the row's time)"},
    {"median_us", "median microseconds per call"},
    {"gbps", "3 n sizeof(T) bytes (2 reads, 1 write) / median time, in GB/s"},
    {"bound_gbps", "the best STREAM triad a[i] = b[i] + s * c[i] on the same bytes, on\n"
                   "threads, on 1 and on threads_used, of the row's ISA level at most"},
    {"bound", "which triad that was (/Nt: on N threads, fewer than the row's)"},
    {"ratio", "gbps / bound_gbps; above 1 when the call beat the triad measured beside\n"
              "it: the bound is a measured loop, not a hardware limit (u8 reads no o)"},
    {"loop_gbps", "the hand-written branch-free loop (bench/handloop.c, its own -O3\n"
                  "-march=native build) on threads_used threads; 0 if not run"},
    {"speedup", "loop time / call time (above 1: the library is faster)"},
    {"onednn_gbps", "oneDNN's eltwise backward (elu_use_dst_for_bwd, alpha = SA: the same\n"
                    "bytes and select, but x1 where o > 0) on threads_used threads, f32 and\n"
                    "bf16; 0 if not run (a '# onednn' line says why)"},
    {"compute_gbps", "the compute bound: the row's kernel on 4K elements in L1 on the calling\n"
                     "thread (what selugrad_isa_rates measures; the median, sampled in turn\n"
                     "with the call and the triads) in elements/s x the bytes per element\n"
                     "counted in gbps x threads_used; 0 in --omp's rows"},
    {"governs", "the lower of bound_gbps and compute_gbps: compute, or the bound's name;\n"
                "- in --omp's rows"},
    {"ratio_gov", "gbps / the governing bound, min(bound_gbps, compute_gbps): what the\n"
                  "forward's in-cache target is judged by (ratio is unchanged)"},
};
enum { SGB_NCOLS = sizeof sgb_cols / sizeof sgb_cols[0] };

void sgb_columns_help(FILE *f) {
    for (size_t c = 0; c < SGB_NCOLS; c++) {
        fprintf(f, "  %-13s ", sgb_cols[c].name);
        for (const char *p = sgb_cols[c].meaning; *p; p++) {
            fputc(*p, f);
            if (*p == '\n') fprintf(f, "  %-13s ", "");
        }
        fputc('\n', f);
    }
}

void sgb_table_header(FILE *f) {
    /* widths of sgb_table_row's fields */
    static const int width[SGB_NCOLS] = {-5, 6,   7, 12, -10, -24, -5, 9,   8,
                                         10, -15, 6, 9,  7,   11,  12, -18, 9};
    for (size_t c = 0; c < SGB_NCOLS; c++)
        fprintf(f, "%s%*s", c ? " " : "", width[c], sgb_cols[c].name);
    fputc('\n', f);
}

void sgb_table_row(FILE *f, const sgb_row *r) {
    char n[32];
    sgb_size_name(r->n, n, sizeof n);
    fprintf(f,
            "%-5s %6s %7u %12u %-10s %-24s %-5s %9.2f %8.2f %10.2f %-15s %6.3f %9.2f %7.2f "
            "%11.2f %12.2f %-18s %9.3f\n",
            selugrad_dtype_name(r->dtype), n, r->threads, r->threads_used, r->isa, r->kernel,
            r->cache, r->us, r->gbps, r->bound_gbps, r->bound_kind, r->ratio, r->loop_gbps,
            r->speedup, r->onednn_gbps, r->compute_gbps, r->governs[0] ? r->governs : "-",
            r->ratio_gov);
    fflush(f);
}

int sgb_write_csv(const char *prog, const char *path, const char *preamble, const sgb_row *rows,
                  size_t nrows) {
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(errno));
        return -1;
    }
    fputs(preamble, f); /* lines starting with "# ": where it ran (env.c) */
    for (size_t c = 0; c < SGB_NCOLS; c++) fprintf(f, "%s%s", c ? "," : "", sgb_cols[c].name);
    fputc('\n', f);
    for (size_t i = 0; i < nrows; i++) {
        const sgb_row *r = &rows[i];
        fprintf(f, "%s,%zu,%u,%u,%s,%s,%s,%.3f,%.3f,%.3f,%s,%.4f,%.3f,%.4f,%.3f,%.3f,%s,%.4f\n",
                selugrad_dtype_name(r->dtype), r->n, r->threads, r->threads_used, r->isa, r->kernel,
                r->cache, r->us, r->gbps, r->bound_gbps, r->bound_kind, r->ratio, r->loop_gbps,
                r->speedup, r->onednn_gbps, r->compute_gbps, r->governs[0] ? r->governs : "-",
                r->ratio_gov);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", prog, path);
        return -1;
    }
    return 0;
}
