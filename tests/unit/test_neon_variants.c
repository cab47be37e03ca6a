/*
 * Every aarch64 NEON kernel against the scalar reference kernel of its dtype, bit for bit: all
 * lengths 0 .. 2*16+1 (every tail of every step width), each pointer offset by one element or
 * not, out of place and in place (y == g, y == o), random and special values (+-0, +-inf, NaNs,
 * subnormals, max finite, values around -SA), every pair of special values, and dispatch (the
 * NEON kernels are chosen unless SELUGRAD_MAX_ISA caps them). On other architectures the list
 * must hold no NEON kernel, and the rest is skipped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "neon_check.h"

#if defined(__aarch64__) && defined(SG_BUILD_NEON)

/* Special bit patterns per dtype: zeros, infs, quiet/signalling NaNs of both signs, the
   smallest and largest subnormals, the smallest normal, max finite, -SA and its neighbours,
   +-1, -0.5, scale, and values whose products overflow. */
static const uint32_t sp_f32[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                                  0xFFC00000, 0x7F800001, 0xFFBFFFFF, 0x00000001, 0x807FFFFF,
                                  0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0xBFE10966,
                                  0xBFE10965, 0xBFE10967, 0x3F800000, 0xBF800000, 0xBF000000,
                                  0x3F867D5F, 0x7E800000, 0xC0000000, 0x34000000, 0xB4000000};
static const uint32_t sp_16[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0xFDFF,
                                 0x0001, 0x83FF, 0x0400, 0x8400, 0x7BFF, 0xFBFF, 0xBF08, 0xBF07,
                                 0xBF09, 0x3C00, 0xBC00, 0xB800, 0x3C34, 0x5BFF, 0xC000, 0xBB33};
static const uint32_t sp_bf16[] = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0xFFBF,
                                   0x0001, 0x807F, 0x0080, 0x8080, 0x7F7F, 0xFF7F, 0xBFE1, 0xBFE0,
                                   0xBFE2, 0x3F80, 0xBF80, 0xBF00, 0x3F86, 0x7F00, 0xC000, 0xBF33};
static const uint32_t sp_8[] = {0x80, 0x7F, 0x00, 0xFF, 0x01, 0xFE, 0x02, 0x64, 0xFB, 0xF3, 0x0A};
static const uint32_t sp_s32[] = {0x80000000u, 0x7FFFFFFFu, 0,           0xFFFFFFFFu, 1,
                                  0xFFFFFFFEu, 0x01000000u, 0x01000001u, 0xFEFFFFFFu, 0x40000000u,
                                  0xC0000000u, 0x79D1C4E0u, 0x8620A000u, 0x000F4240u, 0xFFF0BDC0u};

static const uint32_t *specials(selugrad_dtype dt, size_t *count) {
    switch (dt) {
    case SELUGRAD_FLOAT:
        *count = sizeof sp_f32 / 4;
        return sp_f32;
    case SELUGRAD_FLOAT16:
        *count = sizeof sp_16 / 4;
        return sp_16;
    case SELUGRAD_BF16:
        *count = sizeof sp_bf16 / 4;
        return sp_bf16;
    case SELUGRAD_INT8:
    case SELUGRAD_UINT8:
        *count = sizeof sp_8 / 4;
        return sp_8;
    case SELUGRAD_INT32:
        *count = sizeof sp_s32 / 4;
        return sp_s32;
    }
    *count = 0;
    return NULL;
}

/* One value: a special (1 in 4), any bit pattern, or a moderate value (|x| about 0.1 .. 4, so
   both branches and the region around -SA are well covered). */
static uint32_t gen_value(selugrad_dtype dt, uint64_t *rng) {
    uint64_t r = sg_neon_rand(rng);
    size_t ns;
    const uint32_t *sp = specials(dt, &ns);
    uint32_t bits = (uint32_t)(r >> 32), sign = (uint32_t)(r & 1);
    unsigned e = (unsigned)((r >> 1) % 6);
    switch ((r >> 4) & 3) {
    case 0:
        return sp[(r >> 8) % ns];
    case 1:
        return bits;
    default:
        break;
    }
    switch (dt) {
    case SELUGRAD_FLOAT:
        return sign << 31 | (124u + e) << 23 | (bits & 0x7FFFFFu);
    case SELUGRAD_FLOAT16:
        return sign << 15 | (12u + e) << 10 | (bits & 0x3FFu);
    case SELUGRAD_BF16:
        return sign << 15 | (124u + e) << 7 | (bits & 0x7Fu);
    case SELUGRAD_INT32:
        return (uint32_t)((int32_t)(bits % 4001u) - 2000) << (e * 5);
    default:
        return bits;
    }
}

static void fill(selugrad_dtype dt, uint64_t *rng, unsigned char *p, size_t n) {
    size_t size = selugrad_dtype_size(dt);
    for (size_t i = 0; i < n; i++) {
        uint32_t v = gen_value(dt, rng);
        memcpy(p + i * size, &v, size); /* little-endian: the low bytes */
    }
}

enum { MAXN = 2 * 16 + 1, BUF = (MAXN + 4) * 4 };

/* One call of the NEON kernel at the given offsets and aliasing, checked against want and for
   stray writes outside y[0..n). mode: 0 out of place, 1 y == g, 2 y == o. */
static int run_case(const sg_kernel *k, size_t n, const unsigned char *g0, const unsigned char *o0,
                    const unsigned char *want, unsigned mis, int mode) {
    size_t size = selugrad_dtype_size(k->dtype);
    unsigned char gb[BUF], ob[BUF], yb[BUF], before[3][BUF];
    memset(gb, 0xA5, BUF);
    memset(ob, 0x5A, BUF);
    memset(yb, 0xC3, BUF);
    unsigned char *gp = gb + (mis & 1) * size, *op = ob + (mis >> 1 & 1) * size;
    unsigned char *yp = mode == 1 ? gp : mode == 2 ? op : yb + (mis >> 2 & 1) * size;
    memcpy(gp, g0, n * size);
    memcpy(op, o0, n * size);
    memcpy(before[0], gb, BUF);
    memcpy(before[1], ob, BUF);
    memcpy(before[2], yb, BUF);
    k->fn(n, gp, op, yp);
    char what[64];
    snprintf(what, sizeof what, "offsets g%u o%u y%u, %s", mis & 1, mis >> 1 & 1, mis >> 2 & 1,
             mode == 0   ? "out of place"
             : mode == 1 ? "y == g"
                         : "y == o");
    if (!sg_neon_same(k, what, n, g0, o0, yp, want)) return 0;
    unsigned char *bufs[3] = {gb, ob, yb};
    for (int b = 0; b < 3; b++) {
        for (size_t i = 0; i < BUF; i++) {
            const unsigned char *a = bufs[b] + i;
            if (a >= yp && a < yp + n * size) continue;
            if (*a != before[b][i]) {
                fprintf(stderr, "%s %s n=%zu: stray write in buffer %d byte %zu\n", k->name, what,
                        n, b, i);
                return 0;
            }
        }
    }
    return 1;
}

static void test_all_neon_present(void **state) {
    (void)state;
    for (int d = 0; d < SG_NEON_DTYPE_COUNT; d++) {
        assert_non_null(sg_neon_find(sg_neon_dtypes[d], SG_ISA_NEON));
        assert_non_null(sg_neon_find(sg_neon_dtypes[d], SG_ISA_SCALAR));
    }
}

static void test_tails_offsets_in_place(void **state) {
    (void)state;
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    for (int d = 0; d < SG_NEON_DTYPE_COUNT; d++) {
        const sg_kernel *k = sg_neon_find(sg_neon_dtypes[d], SG_ISA_NEON);
        const sg_kernel *ref = sg_neon_find(sg_neon_dtypes[d], SG_ISA_SCALAR);
        size_t size = selugrad_dtype_size(k->dtype);
        unsigned char g0[BUF], o0[BUF], want[BUF];
        for (size_t n = 0; n <= MAXN; n++) {
            for (int round = 0; round < 4; round++) {
                fill(k->dtype, &rng, g0, n);
                fill(k->dtype, &rng, o0, n);
                memset(want, 0, n * size + 1);
                ref->fn(n, g0, o0, want);
                for (unsigned mis = 0; mis < 8; mis++)
                    for (int mode = 0; mode < 3; mode++)
                        if (!run_case(k, n, g0, o0, want, mis, mode)) fail();
            }
        }
    }
}

/* Every (special g, special o) pair, plus a long random run (many full steps). */
static void test_special_pairs_and_long_runs(void **state) {
    (void)state;
    uint64_t rng = 12345;
    enum { LONG = 4099 };
    for (int d = 0; d < SG_NEON_DTYPE_COUNT; d++) {
        const sg_kernel *k = sg_neon_find(sg_neon_dtypes[d], SG_ISA_NEON);
        const sg_kernel *ref = sg_neon_find(sg_neon_dtypes[d], SG_ISA_SCALAR);
        size_t size = selugrad_dtype_size(k->dtype), ns;
        const uint32_t *sp = specials(k->dtype, &ns);
        unsigned char *buf = malloc(4 * (LONG + 1) * size);
        assert_non_null(buf);
        unsigned char *g = buf, *o = g + (LONG + 1) * size, *y = o + (LONG + 1) * size;
        unsigned char *want = y + (LONG + 1) * size;
        for (size_t i = 0; i < ns * ns; i++) {
            memcpy(g + i * size, &sp[i / ns], size);
            memcpy(o + i * size, &sp[i % ns], size);
        }
        k->fn(ns * ns, g, o, y);
        ref->fn(ns * ns, g, o, want);
        if (!sg_neon_same(k, "special pairs", ns * ns, g, o, y, want)) fail();
        fill(k->dtype, &rng, g + size, LONG); /* offset by one element */
        fill(k->dtype, &rng, o, LONG);
        k->fn(LONG, g + size, o, y + size);
        ref->fn(LONG, g + size, o, want);
        if (!sg_neon_same(k, "long run", LONG, g + size, o, y + size, want)) fail();
        free(buf);
    }
}

/* Dispatch picks NEON on aarch64 unless SELUGRAD_MAX_ISA names a cap below it (an x86 level or
   scalar); an unknown name is ignored. The public entry point then matches the reference. */
static void test_dispatch_and_api(void **state) {
    (void)state;
    const char *cap = getenv("SELUGRAD_MAX_ISA");
    static const char *const below[] = {"scalar", "avx2", "avx512", "avx512fp16"};
    int capped = 0;
    for (size_t i = 0; i < sizeof below / sizeof below[0]; i++)
        capped |= cap != NULL && strcmp(cap, below[i]) == 0;
    uint64_t rng = 777;
    enum { N = 20011 };
    for (int d = 0; d < SG_NEON_DTYPE_COUNT; d++) {
        const sg_kernel *want_k =
            sg_neon_find(sg_neon_dtypes[d], capped ? SG_ISA_SCALAR : SG_ISA_NEON);
        assert_string_equal(selugrad_kernel_name(sg_neon_dtypes[d]), want_k->name);
        const sg_kernel *ref = sg_neon_find(sg_neon_dtypes[d], SG_ISA_SCALAR);
        size_t size = selugrad_dtype_size(ref->dtype);
        unsigned char *buf = malloc(4 * N * size);
        assert_non_null(buf);
        unsigned char *g = buf, *o = g + N * size, *y = o + N * size, *want = y + N * size;
        fill(ref->dtype, &rng, g, N);
        fill(ref->dtype, &rng, o, N);
        assert_int_equal(selugrad_backward(ref->dtype, N, g, o, y), SELUGRAD_OK);
        ref->fn(N, g, o, want);
        if (!sg_neon_same(want_k, "selugrad_backward", N, g, o, y, want)) fail();
        free(buf);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_neon_present),
        cmocka_unit_test(test_tails_offsets_in_place),
        cmocka_unit_test(test_special_pairs_and_long_runs),
        cmocka_unit_test(test_dispatch_and_api),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

/* Not aarch64: the list must not offer a NEON kernel (dispatch could never run it). */
static void test_no_neon_kernels(void **state) {
    (void)state;
    for (size_t i = 0; i < sg_kernel_count; i++)
        assert_int_not_equal(sg_kernels[i].isa, SG_ISA_NEON);
#if defined(__aarch64__)
    fail_msg("aarch64 build without SG_BUILD_NEON: the NEON kernels were not compiled");
#endif
    printf("SKIPPED: no NEON kernels on this architecture\n");
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_neon_kernels)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
