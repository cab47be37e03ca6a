/*
 * Pieces of the benchmark shared between its files: options, timing, buffers, the STREAM triad
 * bound, the hand-written loop baseline and the report. Names start with sgb_.
 */
#ifndef SELUGRAD_BENCH_BENCH_INTERNAL_H
#define SELUGRAD_BENCH_BENCH_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "isa/cpu.h"
#include "selugrad/selugrad.h"

enum { SGB_MAX_LIST = 16 };

/* ---- options (options.c) ---- */

typedef struct sgb_options {
    const char *prog;      /* argv[0], for messages */
    int ops[SGB_MAX_LIST]; /* 0 SeluGrad (selugrad_backward), 1 the forward (selugrad_forward) */
    size_t nops;
    selugrad_dtype dtypes[SGB_MAX_LIST];
    size_t ndtypes;
    size_t sizes[SGB_MAX_LIST]; /* elements */
    size_t nsizes;
    unsigned threads[SGB_MAX_LIST];
    size_t nthreads;
    sg_isa isas[SGB_MAX_LIST];
    size_t nisas;  /* 0: no --isa, the library's own dispatch ("auto") */
    unsigned reps; /* samples per case; 0: chosen from the time budget */
    int quick;
    const char *csv;
    const char *plot;
    int omp; /* --omp: also time calls right after an OpenMP region (omp.c) */
} sgb_options;

/* ---- where it ran (env.c) ---- */

/* The lines that open the text output and the CSV, each starting with "# ": the CPU (model,
   vendor, family, model number), the ISA levels (this CPU's, the cap, the rows'), the caches and
   the streaming threshold, the thread counts, the library version. */
void sgb_env_text(const sgb_options *opt, char *buf, size_t len);

/* Parses argv into opt. Returns 0 to run, 1 when --help was printed, 2 on a bad argument (the
   reason and the usage went to err). */
int sgb_parse_options(int argc, char **argv, sgb_options *opt, FILE *err);
void sgb_usage(FILE *f, const char *prog);

/* ---- timing (timing.c) ---- */

double sgb_now(void); /* seconds, CLOCK_MONOTONIC */

/* One timed call (its buffers take their sets in turn: sgb_bufs_take). Returns 0, or non-zero
   on failure. */
typedef int (*sgb_call_fn)(void *ctx);

typedef struct sgb_timing {
    unsigned reps;   /* samples; 0: from budget_s */
    double budget_s; /* time to spend sampling one case */
    unsigned min_reps;
} sgb_timing;

/* Median seconds per call of up to 9 functions, each after a warm-up (calls that take under
   ~20 us are batched per sample), sampled in rounds so that all see the same moments of a shared
   machine. interleave (data from DRAM): rounds of one sample of each; else (cached data): up to
   eight rounds, each function's turn opening with one sample not kept, so that no function finds
   its cached data evicted by another's at every sample. Returns 0, or -1 if a call failed. */
int sgb_time_medians(size_t count, const sgb_call_fn *fns, void *const *ctxs, int interleave,
                     const sgb_timing *t, double *med);

/* ---- after an OpenMP region (omp.c) ---- */

/* --omp: per dtype, size and thread count, the median time of a call alone, right after an
   OpenMP parallel region through the own pool, and through the host hook driven by `#pragma omp
   parallel for`, printed as "# omp" lines after the table and stored as three rows each in
   rows[0 .. *nrows) (room for 3 x sizes x dtypes x threads; cache "omp-alone", "omp-pool",
   "omp-hook"; bound_gbps the call alone's rate, ratio alone time / the row's time). 0, or -1
   when a call failed or the benchmark was built without OpenMP (with a message). */
typedef struct sgb_row sgb_row;
/* Notes the OpenMP team size and wait policy the process started with (before oneDNN's rows
   change the team size); sgb_omp_run runs its regions with that team. */
void sgb_omp_note_start(void);
int sgb_omp_run(const sgb_options *opt, const sgb_timing *t, sgb_row *rows, size_t *nrows);

/* ---- buffers (buffers.c) ---- */

/* K sets of (g, o, y) arrays of n elements of es bytes, each array 64-byte aligned, used in turn
   by successive calls. Small problems (hot, n <= 1M) rotate among up to 16 sets of different
   values that together stay in cache (so the data is in cache but a branch predictor cannot
   learn it); large ones (cold) among at least two sets and enough that 512 MiB of other sets
   lie between two uses of one, so every call reads memory no recent call touched. The turn is
   the buffers' own (sgb_bufs_take), not each timed function's: the functions sampled in turn on
   one sgb_bufs (the four triads of a row on theirs, the call and the hand loop on the row's)
   each take the next set, so none finds in the caches the set the one before it used. */
typedef struct sgb_bufs {
    size_t n, es, nsets, array_bytes, stride;
    size_t next; /* the set the next call takes */
    int cold;
    unsigned char *mem;
} sgb_bufs;

enum { SGB_HOT_MAX_N = 1 << 20, SGB_HOT_MAX_SETS = 16 };
#define SGB_HOT_SPAN  ((size_t)768 << 10) /* hot sets together: within a 1 MiB L2 */
#define SGB_COLD_SPAN ((size_t)512 << 20) /* bytes touched between two uses of a cold set */

/* The geometry of n elements of es bytes (sizes, sets; mem NULL), as sgb_bufs_alloc lays it out. */
void sgb_bufs_plan(sgb_bufs *b, size_t n, size_t es);
/* The planned sets, in memory already faulted in (0), or -1 when out of memory. */
int sgb_bufs_alloc(sgb_bufs *b, size_t n, size_t es);
/* The bytes sgb_bufs_alloc maps for n elements of es bytes. */
size_t sgb_bufs_plan_bytes(size_t n, size_t es);
void sgb_bufs_free(sgb_bufs *b);
void *sgb_buf(const sgb_bufs *b, size_t set, int which); /* which: 0 g, 1 o, 2 y */
size_t sgb_bufs_take(sgb_bufs *b); /* the set for the next call on b, in turn */
/* Fills every set with mixed-sign, non-zero values of dtype (y with zeros). */
void sgb_bufs_fill(sgb_bufs *b, selugrad_dtype dtype);
/* Fills g and o with the float 1.0 and 2.0 for the triad (y with zeros). */
void sgb_bufs_fill_float(sgb_bufs *b);

/* ---- STREAM triad bound (triad.c and the x86 files) ---- */

typedef void (*sgb_triad_fn)(float *a, const float *b, const float *c, float s, size_t n);

/* One triad variant: a[i] = b[i] + s * c[i] over the arrays of bufs (as floats: the same bytes
   as a SeluGrad call), on nth threads of the library's pool; or, for the forward's bound, STREAM's
   scale a[i] = s * b[i] (c unused: one read and one write, the bytes of a forward call). */
typedef struct sgb_triad {
    sgb_bufs *bufs;
    sgb_triad_fn fn;
    const char *name; /* e.g. "nt-avx512", "scale-nt-avx512" */
    unsigned nth;
} sgb_triad;

/* The plain (t[0]) and non-temporal-store (t[1]) triads (scale != 0: scale loops), each the
   widest this CPU runs under cap (an AVX2-capped row is measured against an AVX2 triad). */
void sgb_triad_setup(sgb_triad t[2], sgb_bufs *bufs, unsigned nth, sg_isa cap, int scale);
int sgb_triad_call(void *ctx); /* ctx: an sgb_triad */

#if defined(__x86_64__) || defined(_M_X64)
void sgb_triad_nt_sse2(float *a, const float *b, const float *c, float s, size_t n);
void sgb_scale_nt_sse2(float *a, const float *b, const float *c, float s, size_t n);
#if defined(SGB_HAVE_AVX2)
void sgb_triad_plain_avx2(float *a, const float *b, const float *c, float s, size_t n);
void sgb_triad_nt_avx2(float *a, const float *b, const float *c, float s, size_t n);
void sgb_scale_plain_avx2(float *a, const float *b, const float *c, float s, size_t n);
void sgb_scale_nt_avx2(float *a, const float *b, const float *c, float s, size_t n);
/* sg_selu_expf on n floats, 8 lanes (the AVX2 kernels' exponential): isa_rates.c */
void sgb_exp_avx2(size_t n, const float *x, float *y);
#endif
#if defined(SGB_HAVE_AVX512)
void sgb_triad_plain_avx512(float *a, const float *b, const float *c, float s, size_t n);
void sgb_triad_nt_avx512(float *a, const float *b, const float *c, float s, size_t n);
void sgb_scale_plain_avx512(float *a, const float *b, const float *c, float s, size_t n);
void sgb_scale_nt_avx512(float *a, const float *b, const float *c, float s, size_t n);
void sgb_exp_avx512(size_t n, const float *x, float *y);
#endif
#endif

/* ---- the compute bound (compute.c) ---- */

/* Elements in the compute bound's buffers: as selugrad_isa_rates's, in L1 (f32 SeluGrad: 48 KiB,
   the L1d of a Zen 4/5 or an Ice Lake and later core). */
enum { SGB_L1_N = 4096 };

/* Kernel k (a SeluGrad or a forward kernel) on the calling thread over set 0 of b (SGB_L1_N
   elements of k's dtype, sgb_bufs_fill), repeated so that its data stays in L1: one timed call
   (sgb_call_fn, ctx an sgb_compute) makes `calls` kernel calls, enough to last min_s (so that
   refilling L1 after a row's streaming calls costs a small part of it). */
struct sg_kernel;
typedef struct sgb_compute {
    const struct sg_kernel *k;
    const sgb_bufs *b;
    size_t calls;
} sgb_compute;
void sgb_compute_setup(sgb_compute *c, const struct sg_kernel *k, const sgb_bufs *b, double min_s);
int sgb_compute_call(void *ctx);

/* ---- hand-written loops (handloop.c, built on its own with SGB_LOOP_FLAGS) ---- */

typedef void (*sgb_loop_fn)(size_t n, const void *g, const void *o, void *y);
sgb_loop_fn sgb_hand_loop(selugrad_dtype dtype);
extern const char sgb_loop_build[]; /* compiler and flags, e.g. "gcc 12.2.0 -O3 -march=native" */
extern const sg_isa sgb_loop_isa;   /* the level those flags let the compiler use */

/* ---- oneDNN's eltwise backward, a second peer (onednn.c) ---- */

typedef struct sgb_onednn sgb_onednn;
/* oneDNN's primitive for n elements of dtype over the arrays of b; NULL with the reason in *why
   where oneDNN is not built in or has no such primitive. */
sgb_onednn *sgb_onednn_open(sgb_bufs *b, selugrad_dtype dtype, const char **why);
void sgb_onednn_close(sgb_onednn *p);
const char *sgb_onednn_impl(const sgb_onednn *p); /* oneDNN's name for it, e.g. "jit:avx512_core" */
void sgb_onednn_threads(unsigned nth);            /* the threads its calls run on */
int sgb_onednn_call(void *ctx);                   /* ctx: an sgb_onednn */

/* ---- results (report.c, plot.c) ---- */

typedef struct sgb_row {
    int op; /* 0 SeluGrad, 1 the forward */
    selugrad_dtype dtype;
    size_t n;
    unsigned threads;      /* what selugrad_set_num_threads was given */
    unsigned threads_used; /* the threads one call ran on, counted */
    const char *isa;       /* the --isa cap, or "auto" */
    const char *kernel;    /* the kernel that ran */
    const char *cache;     /* "hot" or "cold" */
    double us;             /* median microseconds per call */
    double gbps, bound_gbps;
    char bound_kind[24]; /* the winning triad, e.g. "nt-avx512"; "/1t" etc. if on fewer threads */
    double ratio, loop_gbps, speedup; /* loop: handloop.c on threads_used threads; 0 if not run */
    double onednn_gbps;               /* oneDNN's eltwise backward (onednn.c); 0 if not run */
    /* The kernel's rate in L1 on one thread (sgb_compute) x bytes per element x threads_used; which
       of it and bound_gbps is lower ("compute", or bound_kind); gbps over that lower one. 0, "" and
       0 where not measured (--omp's rows). */
    double compute_gbps;
    char governs[24];
    double ratio_gov;
} sgb_row;

void sgb_size_name(size_t n, char *buf, size_t len); /* 4096 -> "4K" */
void sgb_table_header(FILE *f);
void sgb_columns_help(FILE *f); /* each column's name and meaning, for --help */
void sgb_table_row(FILE *f, const sgb_row *r);
int sgb_write_csv(const char *prog, const char *path, const char *preamble, const sgb_row *rows,
                  size_t nrows);
/* Draws the PNG with gnuplot. Returns 0 done, 1 failed; a missing gnuplot is reported and gives 0.
 */
int sgb_plot(const char *prog, const char *path, const sgb_row *rows, size_t nrows);

#endif /* SELUGRAD_BENCH_BENCH_INTERNAL_H */
