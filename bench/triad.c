/*
 * The bandwidth bound: STREAM's triad a[i] = b[i] + s * c[i] over the same bytes as a SeluGrad
 * call (2 reads + 1 write of n * sizeof(T) each, taken as floats), or for the forward STREAM's
 * scale a[i] = s * b[i] (1 read + 1 write, a forward call's bytes), split over the library's
 * pool, once with plain stores and once with non-temporal stores; run.c runs them on the row's
 * threads, on one and on the call's own when in between, and the best is the bound. The vector
 * versions come from per-ISA files; the widest this CPU runs within the row's ISA cap is used,
 * so a row capped at AVX2 stands for an AVX2 machine: its bound is what that machine's
 * STREAM would measure.
 */
#include "bench_internal.h"
#include "core/pool.h"

static void sgb_triad_plain_c(float *a, const float *b, const float *c, float s, size_t n) {
    for (size_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
}

static void sgb_scale_plain_c(float *a, const float *b, const float *c, float s, size_t n) {
    (void)c;
    for (size_t i = 0; i < n; i++) a[i] = s * b[i];
}

typedef struct sgb_triad_job {
    sgb_triad_fn fn;
    float *a;
    const float *b, *c;
    size_t n, per; /* elements, elements per task */
} sgb_triad_job;

/* Triad tasks: nth * 8 runs of whole 64-byte lines, so every task's vector stores stay
   aligned; claimed by the threads as the library's own calls are. */
enum { SGB_TRIAD_TASKS_PER_THREAD = 8 };

static void sgb_triad_range(void *ctx, size_t tb, size_t te) {
    const sgb_triad_job *j = ctx;
    size_t begin = tb * j->per, end = te * j->per;
    if (begin > j->n) begin = j->n;
    if (end > j->n) end = j->n;
    if (begin < end) j->fn(j->a + begin, j->b + begin, j->c + begin, 3.0f, end - begin);
}

int sgb_triad_call(void *ctx) {
    const sgb_triad *t = ctx;
    size_t n = t->bufs->array_bytes / 4, tasks = (size_t)t->nth * SGB_TRIAD_TASKS_PER_THREAD;
    size_t per = ((n + tasks - 1) / tasks + 15) / 16 * 16;
    if (per == 0) per = 16;
    size_t set = sgb_bufs_take(t->bufs);
    sgb_triad_job j = {
        t->fn, sgb_buf(t->bufs, set, 2), sgb_buf(t->bufs, set, 0), sgb_buf(t->bufs, set, 1), n,
        per};
    return sg_pool_for(t->nth, (n + per - 1) / per, sgb_triad_range, &j, 0, SIZE_MAX) == SELUGRAD_OK
               ? 0
               : -1;
}

/* The widest plain and non-temporal triads (or scale loops) this CPU runs under cap. */
static void sgb_triad_pick(sg_isa cap, int scale, sgb_triad_fn *plain, const char **pname,
                           sgb_triad_fn *nt, const char **ntname) {
    (void)cap; /* only the x86 triads have levels */
    *plain = scale ? sgb_scale_plain_c : sgb_triad_plain_c;
    *pname = scale ? "scale-c" : "plain-c";
    *nt = *plain; /* no streaming stores on this architecture */
    *ntname = *pname;
#if defined(__x86_64__) || defined(_M_X64)
    *nt = scale ? sgb_scale_nt_sse2 : sgb_triad_nt_sse2;
    *ntname = scale ? "scale-nt-sse2" : "nt-sse2";
#if defined(SGB_HAVE_AVX2)
    if (sg_isa_supported(SG_ISA_AVX2) && sg_isa_allowed(SG_ISA_AVX2, cap)) {
        *plain = scale ? sgb_scale_plain_avx2 : sgb_triad_plain_avx2;
        *pname = scale ? "scale-avx2" : "plain-avx2";
        *nt = scale ? sgb_scale_nt_avx2 : sgb_triad_nt_avx2;
        *ntname = scale ? "scale-nt-avx2" : "nt-avx2";
    }
#endif
#if defined(SGB_HAVE_AVX512)
    if (sg_isa_supported(SG_ISA_AVX512) && sg_isa_allowed(SG_ISA_AVX512, cap)) {
        *plain = scale ? sgb_scale_plain_avx512 : sgb_triad_plain_avx512;
        *pname = scale ? "scale-avx512" : "plain-avx512";
        *nt = scale ? sgb_scale_nt_avx512 : sgb_triad_nt_avx512;
        *ntname = scale ? "scale-nt-avx512" : "nt-avx512";
    }
#endif
#endif
}

void sgb_triad_setup(sgb_triad t[2], sgb_bufs *bufs, unsigned nth, sg_isa cap, int scale) {
    sgb_triad_pick(cap, scale, &t[0].fn, &t[0].name, &t[1].fn, &t[1].name);
    t[0].bufs = t[1].bufs = bufs;
    t[0].nth = t[1].nth = nth;
}
