/*
 * The PNG: one panel per dtype, GB/s against size (log x), one line per (isa, threads) for the
 * library, the triad bound per threads (dashed) and the hand-written loop per threads (dotted, on
 * the threads the call used). Drawn by
 * gnuplot fed on a pipe; without gnuplot the plot is skipped with a message.
 */
#define _POSIX_C_SOURCE 200809L /* popen, access */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_internal.h"

static int sgb_in_path(const char *prog) {
    const char *path = getenv("PATH");
    char buf[4096];
    while (path && *path) {
        size_t len = strcspn(path, ":");
        if (len > 0 && len + strlen(prog) + 2 < sizeof buf) {
            memcpy(buf, path, len);
            buf[len] = '/';
            strcpy(buf + len + 1, prog);
            if (access(buf, X_OK) == 0) return 1;
        }
        path += len;
        if (*path == ':') path++;
    }
    return 0;
}

/* Distinct values in first-seen order. */
typedef struct sgb_keys {
    size_t n;
    const sgb_row *first[SGB_MAX_LIST * SGB_MAX_LIST];
} sgb_keys;

static void sgb_key_add(sgb_keys *k, const sgb_row *r,
                        int (*same)(const sgb_row *, const sgb_row *)) {
    for (size_t i = 0; i < k->n; i++)
        if (same(k->first[i], r)) return;
    if (k->n < sizeof k->first / sizeof k->first[0]) k->first[k->n++] = r;
}

static int sgb_same_dtype(const sgb_row *a, const sgb_row *b) {
    return a->dtype == b->dtype;
}
static int sgb_same_thr(const sgb_row *a, const sgb_row *b) {
    return a->threads == b->threads;
}
static int sgb_same_size(const sgb_row *a, const sgb_row *b) {
    return a->n == b->n;
}
static int sgb_same_line(const sgb_row *a, const sgb_row *b) {
    return a->threads == b->threads && strcmp(a->isa, b->isa) == 0;
}

/* Writes a datablock of (n, value) for the rows of dtype d matching line, sorted by n. */
static void sgb_block(FILE *p, const char *name, const sgb_row *rows, size_t nrows,
                      const sgb_row *d, const sgb_row *line, int what) {
    fprintf(p, "%s << EOD\n", name);
    size_t last = 0;
    for (;;) { /* ascending n without sorting in place: pick the next larger n each time */
        const sgb_row *best = NULL;
        for (size_t i = 0; i < nrows; i++) {
            const sgb_row *r = &rows[i];
            if (r->dtype != d->dtype || !sgb_same_line(r, line) || r->n <= last) continue;
            if (best == NULL || r->n < best->n) best = r;
        }
        if (best == NULL) break;
        double v = what == 0 ? best->gbps : what == 1 ? best->bound_gbps : best->loop_gbps;
        fprintf(p, "%zu %.4f\n", best->n, v);
        last = best->n;
    }
    fprintf(p, "EOD\n");
}

int sgb_plot(const char *prog, const char *path, const sgb_row *rows, size_t nrows) {
    if (!sgb_in_path("gnuplot")) {
        fprintf(stderr,
                "%s: gnuplot not found in PATH; plot %s skipped "
                "(apt-get install gnuplot-nox)\n",
                prog, path);
        return 0;
    }
    if (nrows == 0) return 0;
    sgb_keys dts = {0}, thr = {0}, lines = {0}, sizes = {0};
    for (size_t i = 0; i < nrows; i++) {
        sgb_key_add(&dts, &rows[i], sgb_same_dtype);
        sgb_key_add(&thr, &rows[i], sgb_same_thr);
        sgb_key_add(&lines, &rows[i], sgb_same_line);
        sgb_key_add(&sizes, &rows[i], sgb_same_size);
    }
    FILE *p = popen("gnuplot", "w");
    if (p == NULL) {
        fprintf(stderr, "%s: cannot start gnuplot\n", prog);
        return 1;
    }
    size_t cols = dts.n < 3 ? dts.n : 3, rws = (dts.n + cols - 1) / cols;
    size_t width = 560 * cols < 760 ? 760 : 560 * cols;
    fprintf(p, "set terminal pngcairo size %zu,%zu font ',10'\nset output '%s'\n", width,
            140 + 470 * rws, path);
    fprintf(p,
            "set multiplot layout %zu,%zu title \"selugrad\\\\_backward: GB/s = 3 n sizeof(T) "
            "/ median time\\nbound: the best plain or non-temporal STREAM triad (on the threads or "
            "on one)\"\n",
            rws, cols);
    fprintf(p, "set logscale x 2\nset logscale y 10\nset grid\n"
               "set key below horizontal maxrows 2 font ',8'\n"
               "set xlabel 'elements'\nset ylabel 'GB/s (log scale)'\nset xtics (");
    for (size_t i = 0; i < sizes.n; i++) {
        char s[32];
        sgb_size_name(sizes.first[i]->n, s, sizeof s);
        fprintf(p, "%s'%s' %zu", i ? ", " : "", s, sizes.first[i]->n);
    }
    fprintf(p, ")\n");
    size_t lo = sizes.first[0]->n, hi = lo;
    for (size_t i = 1; i < sizes.n; i++) {
        if (sizes.first[i]->n < lo) lo = sizes.first[i]->n;
        if (sizes.first[i]->n > hi) hi = sizes.first[i]->n;
    }
    /* A margin on both sides, so the end points and their tic labels stay inside. */
    fprintf(p, "set xrange [%g:%g]\n", (double)lo / 1.5, (double)hi * 1.5);
    for (size_t d = 0; d < dts.n; d++) {
        const sgb_row *dr = dts.first[d];
        char name[64];
        for (size_t l = 0; l < lines.n; l++) {
            snprintf(name, sizeof name, "$L%zu_%zu", d, l);
            sgb_block(p, name, rows, nrows, dr, lines.first[l], 0);
        }
        for (size_t t = 0; t < thr.n; t++) { /* the bound and loop do not depend on the isa */
            const sgb_row *line = NULL;
            for (size_t l = 0; l < lines.n && line == NULL; l++)
                if (lines.first[l]->threads == thr.first[t]->threads) line = lines.first[l];
            snprintf(name, sizeof name, "$B%zu_%zu", d, t);
            sgb_block(p, name, rows, nrows, dr, line, 1);
            snprintf(name, sizeof name, "$H%zu_%zu", d, t);
            sgb_block(p, name, rows, nrows, dr, line, 2);
        }
        fprintf(p, "set title '%s'\nplot ", selugrad_dtype_name(dr->dtype));
        for (size_t l = 0; l < lines.n; l++) {
            const sgb_row *lr = lines.first[l];
            size_t ti = 0;
            while (ti < thr.n && thr.first[ti]->threads != lr->threads) ti++;
            fprintf(p,
                    "$L%zu_%zu using 1:2 with linespoints lw 2 pt 7 lc %zu dt %zu title "
                    "'selugrad %s %ut', ",
                    d, l, ti + 1, l / (thr.n ? thr.n : 1) + 1, lr->isa, lr->threads);
        }
        for (size_t t = 0; t < thr.n; t++)
            fprintf(p, "$B%zu_%zu using 1:2 with lines lw 1 lc %zu dt 2 title 'bound %ut', ", d, t,
                    t + 1, thr.first[t]->threads);
        for (size_t t = 0; t < thr.n; t++)
            fprintf(p,
                    "$H%zu_%zu using 1:2 with linespoints lw 1 pt 4 lc %zu dt 3 title "
                    "'hand loop %ut'%s",
                    d, t, t + 1, thr.first[t]->threads, t + 1 < thr.n ? ", " : "\n");
    }
    fprintf(p, "unset multiplot\n");
    int st = pclose(p);
    if (st != 0) {
        fprintf(stderr, "%s: gnuplot failed (status %d); plot %s not written\n", prog, st, path);
        return 1;
    }
    return 0;
}
