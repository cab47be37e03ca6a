/*
 * Every kernel variant in sg_kernels[] (the list, src/kernels/selugrad.inc: the scalar kernels,
 * the x86 levels, NEON on aarch64) against the golden model (tests/model), bit for bit, by the
 * same code: per dtype, each case's inputs and the golden's outputs are made once and every
 * variant of the dtype runs on them. A variant the CPU cannot run is reported SKIPPED by name.
 * Cases per dtype: every length 0 .. 2 * 64 + 1 (every tail of every step width up to two of the
 * widest vectors plus one) with each of g, o and y one element off alignment or not, out of place
 * and in place (y == g, y == o), and no byte written outside y (nor to an input); every pair of
 * the dtype's special values; long runs, and calls past the streaming-store threshold; fp32 o over
 * the 2^19 patterns around -SA (where o + SA cancels); for 16-bit
 * types every o and every g, and ordinary values with one special value at chosen places (a block
 * holding it must not take a fast path). The battery (test_battery_*) sweeps the same variants
 * over all 8-bit pairs, every 16-bit o and g against 64 and 32 picked values, and fp32 / int32
 * edges and random pairs. Also: the list itself, dispatch under each ISA cap, the ISA names, the
 * public API's kernel and results under every cap, and the xgetbv gate.
 * `test_kernel_variants --isa=LEVEL` tests only the variants of one level (the other cases come
 * with --isa=scalar), and exits 77 (CTest: Skipped) when this CPU lacks the level; CTest runs it
 * once per level built (tests/cmake/isa_caps.cmake). Without an argument it tests everything.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/dtype.h"
#include "core/dispatch.h"
#include "isa/cpu.h"
#include "kernels/kernel.h"
#include "kernels/x86_nt.h"
#include "model/golden.h"
#include "test_rng.h"

enum { MAX_TAIL = 2 * 64 + 1, PAD = 64, TAIL_ROUNDS = 6, LONG_N = 70000 };
enum { NEAR_SA = 1 << 19 };

/* xorshift64*: deterministic, so a failure repeats. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
    return sgt_xorshift64s(&rng_state);
}

/* Special bit patterns per dtype: zeros, infinities, quiet and signalling NaNs of both signs,
   the smallest and largest subnormals, the smallest normal, the largest finite, -SA and its
   neighbours, +-1, +-0.5, -2, scale, and values whose products overflow or saturate. */
static const uint32_t sp_f32[] = {
    0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0xFFC00001, 0x7F800001,
    0xFFBFFFFF, 0x7FFFFFFF, 0x00000001, 0x807FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,
    0xBFE10966, 0xBFE10965, 0xBFE10967, 0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000, 0x3F867D5F,
    0x7E800000, 0xC0000000, 0x34000000, 0xB4000000, 0x7A28BA0D, 0x79F3BD60, 0x79F3BD61};
static const uint32_t sp_f16[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0xFE01,
                                  0x7C01, 0xFDFF, 0x0001, 0x83FF, 0x0400, 0x8400, 0x7BFF,
                                  0xFBFF, 0xBF08, 0xBF07, 0xBF09, 0x3C00, 0xBC00, 0xB800,
                                  0x3C34, 0x5BFF, 0xC000, 0xBB33, 0x7F80, 0xFF80, 0x7FC0};
static const uint32_t sp_bf16[] = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0xFFBF,
                                   0x0001, 0x807F, 0x0080, 0x8080, 0x7F7F, 0xFF7F, 0xBFE1, 0xBFE0,
                                   0xBFE2, 0x3F80, 0xBF80, 0xBF00, 0x3F86, 0x7F00, 0xC000, 0xBF33,
                                   0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x3C00, 0xBF08};
static const uint32_t sp_8[] = {0x00, 0x01, 0x02, 0x0A, 0x64, 0x7E, 0x7F,
                                0x80, 0x81, 0xF3, 0xFB, 0xFE, 0xFF};
static const uint32_t sp_s32[] = {0x00000000u, 0x00000001u, 0xFFFFFFFFu, 0xFFFFFFFEu, 0x80000000u,
                                  0x7FFFFFFFu, 0x01000000u, 0x01000001u, 0xFEFFFFFFu, 0x40000000u,
                                  0xC0000000u, 0x79D1C4E0u, 0x8620A000u, 0x000F4240u, 0xFFF0BDC0u,
                                  0x79CE0000u, 0x7A28BA0Du, 0x79F3BD61u, 0xBFE10966u, 0x7F800000u,
                                  0xFF800000u, 0x7FC00000u};

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

static const uint32_t *specials(selugrad_dtype dt, size_t *count) {
    switch (dt) {
    case SELUGRAD_FLOAT:
        *count = NELEMS(sp_f32);
        return sp_f32;
    case SELUGRAD_FLOAT16:
        *count = NELEMS(sp_f16);
        return sp_f16;
    case SELUGRAD_BF16:
        *count = NELEMS(sp_bf16);
        return sp_bf16;
    case SELUGRAD_INT8:
    case SELUGRAD_UINT8:
        *count = NELEMS(sp_8);
        return sp_8;
    case SELUGRAD_INT32:
        *count = NELEMS(sp_s32);
        return sp_s32;
    }
    *count = 0;
    return NULL;
}

/* One value: a special (1 in 4), any bit pattern (1 in 4), or a moderate one (|x| about
   0.1 .. 4, so that both sides of the select and the region around -SA are well covered; int32
   of every magnitude, and near 2^31 / scale where g * scale saturates). */
static uint32_t gen_value(selugrad_dtype dt) {
    uint64_t r = rnd();
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
        if (e == 5) return 0x79CE0000u + (bits & 0xFFFFu); /* ~2.04e9 */
        return (uint32_t)((int32_t)(bits % 4001u) - 2000) << (e * 6);
    default:
        return bits;
    }
}

static void fill(selugrad_dtype dt, unsigned char *p, size_t n) {
    size_t es = selugrad_dtype_size(dt);
    for (size_t i = 0; i < n; i++) {
        uint32_t v = gen_value(dt);
        memcpy(p + i * es, &v, es); /* little-endian: the low bytes */
    }
}

/* 64-byte aligned memory (an offset of 0 is then aligned for every vector width). */
static void *xalloc(size_t bytes) {
    void *p = aligned_alloc(64, (bytes + 64) / 64 * 64);
    assert_non_null(p);
    return p;
}

/* The one level under test (--isa=LEVEL), or SG_ISA_ALL for every level. */
static sg_isa only_level = SG_ISA_ALL;

/* Whether k runs here (and is of the level under test); says once per kernel when the CPU
   cannot run it. */
static int runs_here(const sg_kernel *k) {
    static unsigned char said[256];
    if (only_level != SG_ISA_ALL && k->isa != only_level) return 0;
    if (sg_isa_supported(k->isa)) return 1;
    size_t idx = (size_t)(k - sg_kernels);
    if (idx < sizeof said && !said[idx]) {
        print_message("[  SKIPPED ] %s: this CPU (or OS) lacks %s\n", k->name, sg_isa_name(k->isa));
        said[idx] = 1;
    }
    return 0;
}

static uint32_t elem(const void *p, size_t i, size_t es) {
    uint32_t v = 0;
    memcpy(&v, (const unsigned char *)p + i * es, es);
    return v;
}

/* Fails naming the variant, the case and the first element of got that differs from want. */
static void expect_same(const sg_kernel *k, const char *what, size_t n, const void *g,
                        const void *o, const void *got, const void *want) {
    size_t es = selugrad_dtype_size(k->dtype);
    if (memcmp(got, want, n * es) == 0) return;
    for (size_t i = 0; i < n; i++)
        if (elem(got, i, es) != elem(want, i, es))
            fail_msg("%s, %s, n=%zu: element %zu (g=0x%X o=0x%X) gives 0x%X, the golden 0x%X",
                     k->name, what, n, i, (unsigned)elem(g, i, es), (unsigned)elem(o, i, es),
                     (unsigned)elem(got, i, es), (unsigned)elem(want, i, es));
}

/* One call of k on g0, o0 (n elements, golden results want) with g, o and y each at one element
   off alignment per bit of mis, and mode 0 out of place, 1 y == g, 2 y == o: y must hold want and
   no byte of the three buffers outside y[0, n) may change. */
static void run_placed(const sg_kernel *k, size_t n, const unsigned char *g0,
                       const unsigned char *o0, const unsigned char *want, unsigned mis, int mode,
                       unsigned char *bufs[3], unsigned char *saved[3], size_t bytes) {
    size_t es = selugrad_dtype_size(k->dtype);
    memset(bufs[0], 0xA5, bytes);
    memset(bufs[1], 0x5A, bytes);
    memset(bufs[2], 0xC3, bytes);
    unsigned char *gp = bufs[0] + (PAD + (mis & 1)) * es;
    unsigned char *op = bufs[1] + (PAD + (mis >> 1 & 1)) * es;
    unsigned char *yp = mode == 1 ? gp : mode == 2 ? op : bufs[2] + (PAD + (mis >> 2 & 1)) * es;
    memcpy(gp, g0, n * es);
    memcpy(op, o0, n * es);
    for (int b = 0; b < 3; b++) memcpy(saved[b], bufs[b], bytes);
    k->fn(n, gp, op, yp);
    char what[64];
    snprintf(what, sizeof what, "offsets g%u o%u y%u, %s", mis & 1, mis >> 1 & 1, mis >> 2 & 1,
             mode == 0   ? "out of place"
             : mode == 1 ? "y == g"
                         : "y == o");
    expect_same(k, what, n, g0, o0, yp, want);
    for (int b = 0; b < 3; b++) {
        /* the bytes of this buffer that must be as they were: all, or all but y[0, n) */
        size_t y0 = bytes, y1 = bytes;
        if (yp >= bufs[b] && yp < bufs[b] + bytes) {
            y0 = (size_t)(yp - bufs[b]);
            y1 = y0 + n * es;
        }
        if (memcmp(bufs[b], saved[b], y0) == 0 &&
            memcmp(bufs[b] + y1, saved[b] + y1, bytes - y1) == 0)
            continue;
        for (size_t i = 0; i < bytes; i++)
            if ((i < y0 || i >= y1) && bufs[b][i] != saved[b][i])
                fail_msg("%s, %s, n=%zu: byte %zd of %s changed", k->name, what, n,
                         (ptrdiff_t)i - (ptrdiff_t)(PAD * es),
                         b == 0   ? "g"
                         : b == 1 ? "o"
                                  : "y");
    }
}

/* Every variant of dt on every length up to MAX_TAIL, every placement and aliasing. */
static void test_tails(void **state) {
    selugrad_dtype dt = *(const selugrad_dtype *)*state;
    size_t es = selugrad_dtype_size(dt), bytes = (MAX_TAIL + 2 * PAD) * es;
    unsigned char *g0 = xalloc(MAX_TAIL * es), *o0 = xalloc(MAX_TAIL * es);
    unsigned char *want = xalloc(MAX_TAIL * es), *bufs[3], *saved[3];
    for (int b = 0; b < 3; b++) {
        bufs[b] = xalloc(bytes);
        saved[b] = xalloc(bytes);
    }
    for (size_t n = 0; n <= MAX_TAIL; n++) {
        for (int round = 0; round < TAIL_ROUNDS; round++) {
            fill(dt, g0, n);
            fill(dt, o0, n);
            gm_selugrad_array((int)dt, n, g0, o0, want);
            for (size_t i = 0; i < sg_kernel_count; i++) {
                const sg_kernel *k = &sg_kernels[i];
                if (k->dtype != dt || !runs_here(k)) continue;
                /* the first round in all 24 placements, the others in four: all aligned, all
                   off, and both kinds of in place with a placement that moves per round */
                for (unsigned mis = 0; mis < 8; mis++)
                    for (int mode = 0; mode < 3; mode++)
                        if (round == 0 || (mode == 0 && (mis == 0 || mis == 7)) ||
                            (mode > 0 && mis == (unsigned)round))
                            run_placed(k, n, g0, o0, want, mis, mode, bufs, saved, bytes);
            }
        }
    }
    for (int b = 0; b < 3; b++) {
        free(bufs[b]);
        free(saved[b]);
    }
    free(g0);
    free(o0);
    free(want);
}

/* Every variant of dt on n elements of g, o (golden results want): out of place with g, o and y
   one element off a 64-byte boundary, and in place (y == g) on aligned arrays. */
static void check_variants(selugrad_dtype dt, const char *what, size_t n, const unsigned char *g,
                           const unsigned char *o, const unsigned char *want) {
    size_t es = selugrad_dtype_size(dt);
    unsigned char *gb = xalloc((n + 1) * es), *ob = xalloc((n + 1) * es);
    unsigned char *yb = xalloc((n + 1) * es);
    for (size_t i = 0; i < sg_kernel_count; i++) {
        const sg_kernel *k = &sg_kernels[i];
        if (k->dtype != dt || !runs_here(k)) continue;
        memcpy(gb + es, g, n * es);
        memcpy(ob + es, o, n * es);
        k->fn(n, gb + es, ob + es, yb + es);
        expect_same(k, what, n, g, o, yb + es, want);
        memcpy(gb, g, n * es);
        memcpy(ob, o, n * es);
        k->fn(n, gb, ob, gb);
        expect_same(k, what, n, g, o, gb, want);
    }
    free(gb);
    free(ob);
    free(yb);
}

/* Golden results of n elements and the check of every variant of dt on them. */
static void check_case(selugrad_dtype dt, const char *what, size_t n, const unsigned char *g,
                       const unsigned char *o) {
    unsigned char *want = xalloc(n * selugrad_dtype_size(dt));
    gm_selugrad_array((int)dt, n, g, o, want);
    check_variants(dt, what, n, g, o, want);
    free(want);
}

/* Every (special g, special o) pair of dt, and long random runs: LONG_N elements and one call
   past the streaming-store threshold. */
static void test_pairs_and_long_runs(void **state) {
    selugrad_dtype dt = *(const selugrad_dtype *)*state;
    size_t es = selugrad_dtype_size(dt), ns;
    const uint32_t *sp = specials(dt, &ns);
    size_t big = SG_NT_MIN_BYTES / (3 * es) + 77, room = big < NEAR_SA ? NEAR_SA : big;
    unsigned char *g = xalloc(room * es), *o = xalloc(room * es);
    for (size_t i = 0; i < ns * ns; i++) {
        memcpy(g + i * es, &sp[i / ns], es);
        memcpy(o + i * es, &sp[i % ns], es);
    }
    check_case(dt, "special pairs", ns * ns, g, o);
    fill(dt, g, LONG_N);
    fill(dt, o, LONG_N);
    check_case(dt, "long run", LONG_N, g, o);
    fill(dt, g, big);
    fill(dt, o, big);
    check_case(dt, "past the streaming threshold", big, g, o);
    if (es == 1) { /* every (g, o) pair twice, in a call past the streaming threshold */
        size_t np = 2 * 65536 + 13;
        unsigned char *gp = xalloc(np), *op = xalloc(np);
        for (size_t i = 0; i < np; i++) {
            gp[i] = (unsigned char)(i >> 8);
            op[i] = (unsigned char)(i * 7 + 3);
        }
        check_case(dt, "every pair past the streaming threshold", np, gp, op);
        free(gp);
        free(op);
    }
    if (dt == SELUGRAD_FLOAT) { /* 2^19 o patterns around -SA, where o + SA cancels */
        for (uint32_t i = 0; i < NEAR_SA; i++) {
            uint32_t gv = gen_value(dt) & 0x807FFFFFu, ov = 0xBFE10966u - NEAR_SA / 2 + i;
            gv |= (uint32_t)(120 + rnd() % 16) << 23; /* g moderate: 2^-7 .. 2^8 */
            memcpy(g + 4 * i, &gv, 4);
            memcpy(o + 4 * i, &ov, 4);
        }
        check_case(dt, "o around -SA", NEAR_SA, g, o);
    }
    free(g);
    free(o);
}

/* 16-bit: every o with several g per o, and every g with several special o. */
static void test_every_o_and_g16(void **state) {
    selugrad_dtype dt = *(const selugrad_dtype *)*state;
    enum { N = 65536 * 4 };
    size_t ns;
    const uint32_t *sp = specials(dt, &ns);
    uint16_t *g = xalloc(N * 2), *o = xalloc(N * 2);
    for (size_t i = 0; i < N; i++) {
        o[i] = (uint16_t)i;
        g[i] = (i >> 16) == 0 ? (uint16_t)0x3C00 : (uint16_t)rnd();
    }
    check_case(dt, "every o", N, (const unsigned char *)g, (const unsigned char *)o);
    for (size_t i = 0; i < N; i++) {
        g[i] = (uint16_t)i;
        o[i] = (uint16_t)sp[(i >> 16) * 5 % ns];
    }
    check_case(dt, "every g", N, (const unsigned char *)g, (const unsigned char *)o);
    free(g);
    free(o);
}

/* Ordinary values only (finite, no zeros, moderate magnitudes), with at most one special value
   at a chosen place: kernels with a fast path for blocks without special inputs must take it for
   the plain blocks and compute the block holding the special value exactly; also at the
   streaming size. */
static uint16_t plain16(selugrad_dtype dt) {
    uint32_t r = (uint32_t)rnd();
    uint16_t sign = (uint16_t)(r & 0x8000u);
    if (dt == SELUGRAD_BF16) return (uint16_t)(sign | (0x3C00u + (r >> 8) % 0x0600u));
    return (uint16_t)(sign | (0x2000u + (r >> 8) % 0x2800u));
}

static void one_special(selugrad_dtype dt, size_t n, size_t at, int which, uint16_t v) {
    uint16_t *g = xalloc(n * 2), *o = xalloc(n * 2);
    for (size_t i = 0; i < n; i++) {
        g[i] = plain16(dt);
        o[i] = plain16(dt);
    }
    if (at < n) (which ? o : g)[at] = v;
    char what[64];
    snprintf(what, sizeof what, "%s[%zu]=%04x among ordinary values", which ? "o" : "g", at, v);
    check_case(dt, what, n, (const unsigned char *)g, (const unsigned char *)o);
    free(g);
    free(o);
}

static void test_one_special16(void **state) {
    selugrad_dtype dt = *(const selugrad_dtype *)*state;
    static const uint16_t g_bf16[] = {0x7FC0, 0xFF81, 0x7F80, 0xFF80, 0x0000, 0x7F7F};
    static const uint16_t o_bf16[] = {0xFF80, 0xF780, 0xF7FF, 0xFEFF, 0xFFC0, 0xBFE1, 0x8000};
    static const uint16_t g_f16[] = {0x7E00, 0xFC01, 0x7C00, 0xFC00, 0x0000, 0x7BFF};
    static const uint16_t o_f16[] = {0xFC00, 0xFBFF, 0xFE00, 0xBF08, 0x8000};
    int bf = dt == SELUGRAD_BF16;
    const uint16_t *gs = bf ? g_bf16 : g_f16, *os = bf ? o_bf16 : o_f16;
    size_t ng = bf ? NELEMS(g_bf16) : NELEMS(g_f16), no = bf ? NELEMS(o_bf16) : NELEMS(o_f16);
    static const size_t places[] = {0, 31, 1023, 1024, 2047, 2048, 4999};
    one_special(dt, 5000, 5000, 0, 0); /* none */
    for (size_t p = 0; p < NELEMS(places); p++) {
        for (size_t i = 0; i < ng; i++) one_special(dt, 5000, places[p], 0, gs[i]);
        for (size_t i = 0; i < no; i++) one_special(dt, 5000, places[p], 1, os[i]);
    }
    size_t big = SG_NT_MIN_BYTES / 6 + 4099;
    one_special(dt, big, big, 0, 0);
    one_special(dt, big, big / 2, 0, gs[0]);
    one_special(dt, big, big - 3, 1, os[0]);
}

/* The list: a scalar kernel for every dtype; on aarch64 a NEON kernel for every dtype, elsewhere
   none (dispatch could never run it). */
static void test_list(void **state) {
    (void)state;
    for (int d = 0; d < SG_DTYPE_COUNT; d++) {
        int scalar = 0, neon = 0;
        for (size_t i = 0; i < sg_kernel_count; i++) {
            if (sg_kernels[i].dtype != sg_dtype_list[d]) continue;
            scalar += sg_kernels[i].isa == SG_ISA_SCALAR;
            neon += sg_kernels[i].isa == SG_ISA_NEON;
        }
        assert_int_equal(scalar, 1);
#if defined(__aarch64__) && defined(SG_BUILD_NEON)
        assert_int_equal(neon, 1);
#elif defined(__aarch64__)
        fail_msg("aarch64 build without SG_BUILD_NEON: the NEON kernels were not compiled");
#else
        assert_int_equal(neon, 0);
#endif
    }
}

/* sg_kernel_select: allowed, supported, right dtype, and no earlier (preferred) kernel of the
   dtype that would also qualify. */
static void test_dispatch_caps(void **state) {
    (void)state;
    for (int c = SG_ISA_SCALAR; c <= SG_ISA_NEON; c++) {
        for (int d = 0; d < SG_DTYPE_COUNT; d++) {
            const sg_kernel *k = sg_kernel_select(sg_dtype_list[d], (sg_isa)c);
            assert_non_null(k);
            assert_int_equal(k->dtype, sg_dtype_list[d]);
            assert_true(sg_isa_allowed(k->isa, (sg_isa)c));
            assert_true(sg_isa_supported(k->isa));
            if (c == SG_ISA_SCALAR) assert_int_equal(k->isa, SG_ISA_SCALAR);
            for (const sg_kernel *e = sg_kernels; e < k; e++)
                if (e->dtype == k->dtype)
                    assert_false(sg_isa_allowed(e->isa, (sg_isa)c) && sg_isa_supported(e->isa));
        }
    }
    /* the ordering of the levels */
    assert_true(sg_isa_allowed(SG_ISA_AVX2, SG_ISA_AVX512));
    assert_false(sg_isa_allowed(SG_ISA_AVX512, SG_ISA_AVX2));
    assert_true(sg_isa_allowed(SG_ISA_AVX512, SG_ISA_AVX512FP16));
    assert_false(sg_isa_allowed(SG_ISA_AVX512FP16, SG_ISA_AVX512));
    assert_true(sg_isa_allowed(SG_ISA_AVX512FP16, SG_ISA_AVX512FP16));
    assert_false(sg_isa_allowed(SG_ISA_NEON, SG_ISA_AVX512FP16));
    assert_false(sg_isa_allowed(SG_ISA_AVX2, SG_ISA_NEON));
}

/* The level names and numbers, both ways; a name not in the list (among them "avx512bf16", a
   level that no longer exists) is unknown. */
static void test_isa_names(void **state) {
    (void)state;
    static const char *const names[] = {"scalar", "avx2", "avx512", "avx512fp16", "neon"};
    static const sg_isa levels[] = {SG_ISA_SCALAR, SG_ISA_AVX2, SG_ISA_AVX512, SG_ISA_AVX512FP16,
                                    SG_ISA_NEON};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(levels[i], i);
        assert_string_equal(sg_isa_name(levels[i]), names[i]);
        sg_isa isa = i == SG_ISA_NEON ? SG_ISA_SCALAR : SG_ISA_NEON; /* must be overwritten */
        assert_true(sg_isa_from_name(names[i], &isa));
        assert_int_equal(isa, levels[i]);
    }
    assert_string_equal(sg_isa_name((sg_isa)5), "unknown");
    static const char *const unknown[] = {"avx512bf16", "AVX512", "avx512f", "", "sse2"};
    for (int i = 0; i < 5; i++) {
        sg_isa isa = SG_ISA_AVX2;
        assert_false(sg_isa_from_name(unknown[i], &isa));
        assert_int_equal(isa, SG_ISA_AVX2); /* untouched */
    }
    assert_false(sg_isa_from_name(NULL, NULL));
}

/* Under every cap set with selugrad_set_max_isa (each level and none), the public entry point
   runs the kernel sg_kernel_select picks for that cap and gives the golden's results; the cap in
   force before is restored. (The cap's default from SELUGRAD_MAX_ISA is test_isa_cap's.) */
static void test_api_under_caps(void **state) {
    (void)state;
    enum { N = 20011 };
    const selugrad_isa before = selugrad_get_max_isa();
    static const selugrad_isa caps[] = {SG_ISA_SCALAR,     SG_ISA_AVX2, SG_ISA_AVX512,
                                        SG_ISA_AVX512FP16, SG_ISA_NEON, SG_ISA_ALL};
    for (size_t c = 0; c < NELEMS(caps); c++) {
        assert_int_equal(selugrad_set_max_isa(caps[c]), SELUGRAD_OK);
        for (int d = 0; d < SG_DTYPE_COUNT; d++) {
            selugrad_dtype dt = sg_dtype_list[d];
            const sg_kernel *k = sg_kernel_select(dt, caps[c]);
            assert_non_null(k);
            assert_string_equal(selugrad_kernel_name(dt), k->name);
            size_t es = selugrad_dtype_size(dt);
            unsigned char *g = xalloc(N * es), *o = xalloc(N * es), *y = xalloc(N * es);
            unsigned char *want = xalloc(N * es);
            fill(dt, g, N);
            fill(dt, o, N);
            gm_selugrad_array((int)dt, N, g, o, want);
            assert_int_equal(selugrad_backward(dt, N, g, o, y), SELUGRAD_OK);
            expect_same(k, "selugrad_backward", N, g, o, y, want);
            free(g);
            free(o);
            free(y);
            free(want);
        }
    }
    assert_int_equal(selugrad_set_max_isa(before), SELUGRAD_OK);
}

/* A level counts only when XCR0 says the OS saves its registers; read XCR0 here independently. */
static void test_xgetbv_gate(void **state) {
    (void)state;
#if defined(__x86_64__)
    const sg_cpu_features *f = sg_cpu_features_get();
    unsigned a, b, c, d;
    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
    int osxsave = (int)((c >> 27) & 1u);
    uint64_t xcr0 = 0;
    if (osxsave) {
        uint32_t lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        xcr0 = ((uint64_t)hi << 32) | lo;
    }
    assert_int_equal(f->os_avx, (xcr0 & 6u) == 6u);
    assert_int_equal(f->os_avx512, (xcr0 & 0xE6u) == 0xE6u);
    if (sg_isa_supported(SG_ISA_AVX2)) assert_true(f->os_avx && f->avx2 && f->f16c && f->fma);
    if (sg_isa_supported(SG_ISA_AVX512)) assert_true(f->os_avx512 && f->avx512f && f->avx512bw);
    if (sg_isa_supported(SG_ISA_AVX512FP16))
        assert_true(f->os_avx512 && f->avx512f && f->avx512bw && f->avx512vl && f->avx512dq &&
                    f->avx512fp16 && f->avx512vbmi);
    assert_false(sg_isa_supported(SG_ISA_NEON));
#elif defined(__aarch64__)
    assert_true(sg_isa_supported(SG_ISA_NEON));
    assert_false(sg_isa_supported(SG_ISA_AVX2));
#else
    skip();
#endif
}

/* --isa=LEVEL: 0 and only_level set, 2 for a bad argument, 77 when this CPU lacks the level. */
static int parse_level(int argc, char **argv) {
    if (argc < 2) return 0;
    sg_isa level;
    if (argc > 2 || strncmp(argv[1], "--isa=", 6) != 0 || !sg_isa_from_name(argv[1] + 6, &level) ||
        level == SG_ISA_ALL) {
        fprintf(stderr, "usage: test_kernel_variants [--isa=scalar|avx2|avx512|avx512fp16|neon]\n");
        return 2;
    }
    size_t n = 0;
    for (size_t i = 0; i < sg_kernel_count; i++) n += sg_kernels[i].isa == level;
    if (!sg_isa_supported(level)) {
        printf("SKIPPED %s: this CPU (or OS) lacks it; its %zu variant(s) are not tested here\n",
               sg_isa_name(level), n);
        return 77;
    }
    printf("testing the %zu variant(s) of %s%s\n", n, sg_isa_name(level),
           level == SG_ISA_SCALAR ? ", the list, dispatch and the API under every cap" : "");
    only_level = level;
    return 0;
}

int main(int argc, char **argv) {
    enum { PER_DTYPE = 4, GENERAL = 5 };
    struct CMUnitTest tests[SG_DTYPE_COUNT * PER_DTYPE + GENERAL];
    static char names[SG_DTYPE_COUNT * PER_DTYPE][64];
    size_t nt = 0;
    size_t skipped = 0;
    int rc = parse_level(argc, argv);
    if (rc != 0) return rc;
    for (size_t i = 0; i < sg_kernel_count; i++)
        if ((only_level == SG_ISA_ALL || sg_kernels[i].isa == only_level) &&
            !sg_isa_supported(sg_kernels[i].isa)) {
            printf("SKIPPED %s: this CPU (or OS) lacks %s\n", sg_kernels[i].name,
                   sg_isa_name(sg_kernels[i].isa));
            skipped++;
        }
    for (int d = 0; d < SG_DTYPE_COUNT; d++) {
        static const struct {
            const char *name;
            CMUnitTestFunction fn;
            size_t es; /* only for this element size; 0: every dtype */
        } cases[PER_DTYPE] = {{"tails_offsets_in_place", test_tails, 0},
                              {"special_pairs_long_runs", test_pairs_and_long_runs, 0},
                              {"every_o_every_g", test_every_o_and_g16, 2},
                              {"one_special", test_one_special16, 2}};
        size_t es = selugrad_dtype_size(sg_dtype_list[d]), variants = 0;
        for (size_t i = 0; i < sg_kernel_count; i++)
            variants += sg_kernels[i].dtype == sg_dtype_list[d] &&
                        (only_level == SG_ISA_ALL || sg_kernels[i].isa == only_level);
        if (variants == 0) continue; /* none of the level under test */
        for (int c = 0; c < PER_DTYPE; c++) {
            if (cases[c].es && cases[c].es != es) continue;
            snprintf(names[nt], sizeof names[nt], "%s_%s", selugrad_dtype_name(sg_dtype_list[d]),
                     cases[c].name);
            tests[nt] =
                (struct CMUnitTest){names[nt], cases[c].fn, NULL, NULL, (void *)&sg_dtype_list[d]};
            nt++;
        }
    }
    if (only_level == SG_ISA_ALL || only_level == SG_ISA_SCALAR) {
        tests[nt++] = (struct CMUnitTest){"list", test_list, NULL, NULL, NULL};
        tests[nt++] = (struct CMUnitTest){"dispatch_caps", test_dispatch_caps, NULL, NULL, NULL};
        tests[nt++] = (struct CMUnitTest){"isa_names", test_isa_names, NULL, NULL, NULL};
        tests[nt++] = (struct CMUnitTest){"api_under_caps", test_api_under_caps, NULL, NULL, NULL};
        tests[nt++] = (struct CMUnitTest){"xgetbv_gate", test_xgetbv_gate, NULL, NULL, NULL};
    }
    printf("%zu variant(s) skipped for lack of CPU support\n", skipped);
    fflush(stdout);
    return _cmocka_run_group_tests("kernel_variants", tests, nt, NULL, NULL);
}
