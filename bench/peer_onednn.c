/*
 * oneDNN's eltwise backward for bench/peers.py: diff_src from diff_dst and dst with
 * eltwise_elu_use_dst_for_bwd, alpha = SELU's alpha. oneDNN has no SELU; this is the nearest
 * primitive, with the same traffic (two f32 reads and one f32 write per element) and one multiply
 * less. Usage: peer_onednn N REPS; prints "median_s S" (threads: OMP_NUM_THREADS, as oneDNN's
 * OpenMP runtime reads it).
 */
#include <oneapi/dnnl/dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        dnnl_status_t s_ = (x);                                                                    \
        if (s_ != dnnl_success) {                                                                  \
            fprintf(stderr, "peer_onednn: %s failed (%d)\n", #x, (int)s_);                         \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: peer_onednn N REPS\n");
        return 2;
    }
    long n = atol(argv[1]), reps = atol(argv[2]);
    if (n <= 0 || reps <= 0) return 2;
    float *dst = aligned_alloc(64, ((size_t)n * 4 + 63) / 64 * 64);
    float *dd = aligned_alloc(64, ((size_t)n * 4 + 63) / 64 * 64);
    float *ds = aligned_alloc(64, ((size_t)n * 4 + 63) / 64 * 64);
    double *t = malloc((size_t)reps * sizeof *t);
    if (!dst || !dd || !ds || !t) return 1;
    for (long i = 0; i < n; i++) {
        dst[i] = (float)(i % 1000) * 0.01f - 1.5f;
        dd[i] = (float)(i % 997) * 0.002f - 1.0f;
        ds[i] = 0;
    }
    const float alpha = 1.6732632423543772f;
    dnnl_engine_t eng;
    dnnl_stream_t strm;
    CHECK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    CHECK(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags));
    dnnl_memory_desc_t md;
    dnnl_dims_t dims = {n};
    CHECK(dnnl_memory_desc_init_by_tag(&md, 1, dims, dnnl_f32, dnnl_a));
    dnnl_eltwise_desc_t fd, bd;
    CHECK(dnnl_eltwise_forward_desc_init(&fd, dnnl_forward_training,
                                         dnnl_eltwise_elu_use_dst_for_bwd, &md, alpha, 0.f));
    dnnl_primitive_desc_t fpd, bpd;
    CHECK(dnnl_primitive_desc_create(&fpd, &fd, NULL, eng, NULL));
    CHECK(dnnl_eltwise_backward_desc_init(&bd, dnnl_eltwise_elu_use_dst_for_bwd, &md, &md, alpha,
                                          0.f));
    CHECK(dnnl_primitive_desc_create(&bpd, &bd, NULL, eng, fpd));
    dnnl_primitive_t bwd;
    CHECK(dnnl_primitive_create(&bwd, bpd));
    dnnl_memory_t m_dst, m_dd, m_ds;
    CHECK(dnnl_memory_create(&m_dst, &md, eng, dst));
    CHECK(dnnl_memory_create(&m_dd, &md, eng, dd));
    CHECK(dnnl_memory_create(&m_ds, &md, eng, ds));
    dnnl_exec_arg_t args[3] = {
        {DNNL_ARG_DST, m_dst}, {DNNL_ARG_DIFF_DST, m_dd}, {DNNL_ARG_DIFF_SRC, m_ds}};
    for (long r = -2; r < reps; r++) {
        double a = now();
        CHECK(dnnl_primitive_execute(bwd, strm, 3, args));
        CHECK(dnnl_stream_wait(strm));
        if (r >= 0) t[r] = now() - a;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    printf("median_s %.9f\n", t[reps / 2]);
    return 0;
}
