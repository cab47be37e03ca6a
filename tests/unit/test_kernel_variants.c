/*
 * Every kernel variant in sg_kernels[] against the scalar reference kernel of its dtype, bit for
 * bit: lengths 0 .. 2 * 64 + 1 (two of the widest vectors plus one), pointers one element off
 * alignment, in place (y == g and y == o), random bit patterns plus special values, and one call
 * large enough for the streaming-store path; for 16-bit types also every o, and ordinary values
 * with one special value at chosen places (a block holding it must not take a fast path). A variant
 * the CPU cannot run is reported SKIPPED by name. Also: dispatch under each ISA cap, the ISA names,
 * the cap from SELUGRAD_MAX_ISA, and the xgetbv gate.
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
#include "kernels/ref/selugrad_ref.h"
#include "kernels/x86_nt.h"

enum { MAX_TAIL = 2 * 64 + 1, PAD = 64 };

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* Special inputs per element size, mixed into the random stream. */
static const uint32_t special32[] = {
    0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u, 0x7F800001u,
    0x00000001u, 0x807FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x3F800000u, 0xBF800000u, 0xC0000000u,
    0xBFE10966u, 0xBFE10967u, 0x3F000000u, 0x7FFFFFFFu, 0x7A28BA0Du, 0x79F3BD60u, 0x79F3BD61u};
static const uint16_t special16[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x7C01,
                                     0x0001, 0x83FF, 0x7BFF, 0xFBFF, 0x3C00, 0xBC00, 0xC000,
                                     0xBF08, 0xBF09, 0x7F80, 0xFF80, 0x7FC0, 0x7F7F, 0x0080};
static const uint8_t special8[] = {0x00, 0x01, 0x7F, 0x80, 0x81, 0xFF, 0xFE, 0x02, 0x7E};

static void fill(void *buf, size_t n, size_t es) {
    unsigned char *p = (unsigned char *)buf;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = rnd();
        int use_special = (r & 3u) == 0;
        uint32_t pick = rnd();
        if (es == 4) {
            uint32_t v = use_special ? special32[pick % (sizeof special32 / 4)] : rnd();
            /* int32 near the +-2^31 saturation edges: g * scale close to 2^31 */
            if ((r & 15u) == 1) v = 0x79CE0000u + (pick & 0xFFFFu); /* ~2.04e9 */
            memcpy(p + i * 4, &v, 4);
        } else if (es == 2) {
            uint16_t v = use_special ? special16[pick % (sizeof special16 / 2)] : (uint16_t)rnd();
            memcpy(p + i * 2, &v, 2);
        } else {
            p[i] = use_special ? special8[pick % sizeof special8] : (uint8_t)rnd();
        }
    }
}

static const sg_kernel *reference_of(selugrad_dtype dtype) {
    for (size_t i = 0; i < sg_kernel_count; i++)
        if (sg_kernels[i].dtype == dtype && sg_kernels[i].isa == SG_ISA_SCALAR)
            return &sg_kernels[i];
    return NULL;
}

/* Runs k and the reference on n elements at byte offset off (one element) and compares;
   mode 0 out of place, 1 y == g, 2 y == o. Checks that bytes around y are untouched. */
static void check_one(const sg_kernel *k, size_t n, size_t off_elems, int mode) {
    const sg_kernel *ref = reference_of(k->dtype);
    size_t es = selugrad_dtype_size(k->dtype);
    size_t bytes = (n + 2 * PAD) * es;
    unsigned char *g = aligned_alloc(64, (bytes + 63) / 64 * 64);
    unsigned char *o = aligned_alloc(64, (bytes + 63) / 64 * 64);
    unsigned char *y = aligned_alloc(64, (bytes + 63) / 64 * 64);
    unsigned char *want = aligned_alloc(64, (bytes + 63) / 64 * 64);
    assert_non_null(g);
    assert_non_null(o);
    assert_non_null(y);
    assert_non_null(want);
    fill(g, n + 2 * PAD, es);
    fill(o, n + 2 * PAD, es);
    memset(y, 0xA5, bytes);
    size_t at = (PAD + off_elems) * es;
    memcpy(want, y, bytes);
    ref->fn(n, g + at, o + at, want + at);
    if (mode == 0) {
        k->fn(n, g + at, o + at, y + at);
    } else {
        unsigned char *inout = mode == 1 ? g : o;
        memcpy(y, inout, bytes);
        memcpy(want, inout, bytes);
        ref->fn(n, g + at, o + at, want + at);
        k->fn(n, mode == 1 ? y + at : g + at, mode == 2 ? y + at : o + at, y + at);
    }
    if (memcmp(y, want, bytes) != 0) {
        for (size_t i = 0; i < bytes; i++) {
            if (y[i] != want[i]) {
                size_t e = i / es;
                fail_msg("%s: n=%zu off=%zu mode=%d: byte %zu (element %zd) is %02x, want %02x",
                         k->name, n, off_elems, mode, i,
                         (ptrdiff_t)e - (ptrdiff_t)(PAD + off_elems), y[i], want[i]);
            }
        }
    }
    free(g);
    free(o);
    free(y);
    free(want);
}

static void test_variant(void **state) {
    const sg_kernel *k = (const sg_kernel *)*state;
    if (!sg_isa_supported(k->isa)) {
        print_message("[  SKIPPED ] %s: this CPU (or OS) lacks %s\n", k->name, sg_isa_name(k->isa));
        skip();
    }
    for (size_t n = 0; n <= MAX_TAIL; n++)
        for (size_t off = 0; off <= 1; off++)
            for (int mode = 0; mode <= 2; mode++) check_one(k, n, off, mode);
    /* Longer random runs, and one call past the streaming-store threshold, misaligned. */
    size_t es = selugrad_dtype_size(k->dtype);
    check_one(k, 70000, 1, 0);
    if (es >= 2) { /* the variants with a streaming-store path */
        check_one(k, SG_NT_MIN_BYTES / (3 * es) + 77, 1, 0);
        check_one(k, SG_NT_MIN_BYTES / (3 * es) + 77, 0, 1);
    }
}

/* k against the reference of its dtype on n 16-bit (g, o) pairs, element by element; what
   names the case in a failure. */
static void expect_ref16(const sg_kernel *k, size_t n, const uint16_t *g, const uint16_t *o,
                         const char *what) {
    const sg_kernel *ref = reference_of(k->dtype);
    uint16_t *y = malloc(n * 2), *w = malloc(n * 2);
    assert_true(y && w);
    ref->fn(n, g, o, w);
    k->fn(n, g, o, y);
    for (size_t i = 0; i < n; i++)
        if (y[i] != w[i])
            fail_msg("%s: %s: element %zu (g=%04x o=%04x) gives %04x, want %04x", k->name, what, i,
                     g[i], o[i], y[i], w[i]);
    free(y);
    free(w);
}

/* Every (g, o) with o over all 65536 half / bf16 patterns, several g per o. */
static void test_variant_all_o16(void **state) {
    const sg_kernel *k = (const sg_kernel *)*state;
    if (!sg_isa_supported(k->isa)) skip();
    enum { N = 65536 * 4 };
    uint16_t *g = malloc(N * 2), *o = malloc(N * 2);
    assert_true(g && o);
    for (size_t i = 0; i < N; i++) {
        o[i] = (uint16_t)i;
        g[i] = (i >> 16) == 0 ? (uint16_t)0x3C00 : (uint16_t)rnd();
    }
    expect_ref16(k, N, g, o, "every o");
    /* and every g against a few o */
    for (size_t i = 0; i < N; i++) {
        g[i] = (uint16_t)i;
        o[i] = special16[(i >> 16) * 5 % (sizeof special16 / 2)];
    }
    expect_ref16(k, N, g, o, "every g");
    free(g);
    free(o);
}

/* Ordinary values only (finite, no zeros, moderate magnitudes), with at most one special value
   at a chosen place: kernels with a fast path for blocks without special inputs (AVX-512 bf16)
   must take it for the plain blocks and compute the block holding the special value exactly;
   also at the streaming size. */
static uint16_t plain16(selugrad_dtype dtype) {
    uint32_t r = rnd();
    uint16_t sign = (uint16_t)(r & 0x8000u);
    if (dtype == SELUGRAD_BF16) return (uint16_t)(sign | (0x3C00u + (r >> 8) % 0x0600u));
    return (uint16_t)(sign | (0x2000u + (r >> 8) % 0x2800u));
}

static void check_one_special(const sg_kernel *k, size_t n, size_t at, int which, uint16_t v) {
    uint16_t *g = malloc(n * 2), *o = malloc(n * 2);
    assert_true(g && o);
    for (size_t i = 0; i < n; i++) {
        g[i] = plain16(k->dtype);
        o[i] = plain16(k->dtype);
    }
    if (at < n) (which ? o : g)[at] = v;
    char what[64];
    snprintf(what, sizeof what, "n=%zu, %s[%zu]=%04x", n, which ? "o" : "g", at, v);
    expect_ref16(k, n, g, o, what);
    free(g);
    free(o);
}

static void test_variant_one_special(void **state) {
    const sg_kernel *k = (const sg_kernel *)*state;
    if (!sg_isa_supported(k->isa)) skip();
    static const uint16_t g_bf16[] = {0x7FC0, 0xFF81, 0x7F80, 0xFF80, 0x0000, 0x7F7F};
    static const uint16_t o_bf16[] = {0xFF80, 0xF780, 0xF7FF, 0xFEFF, 0xFFC0, 0xBFE1, 0x8000};
    static const uint16_t g_f16[] = {0x7E00, 0xFC01, 0x7C00, 0xFC00, 0x0000, 0x7BFF};
    static const uint16_t o_f16[] = {0xFC00, 0xFBFF, 0xFE00, 0xBF08, 0x8000};
    int bf = k->dtype == SELUGRAD_BF16;
    const uint16_t *gs = bf ? g_bf16 : g_f16, *os = bf ? o_bf16 : o_f16;
    size_t ng = bf ? sizeof g_bf16 / 2 : sizeof g_f16 / 2,
           no = bf ? sizeof o_bf16 / 2 : sizeof o_f16 / 2;
    static const size_t places[] = {0, 31, 1023, 1024, 2047, 2048, 4999};
    check_one_special(k, 5000, 5000, 0, 0); /* none */
    for (size_t p = 0; p < sizeof places / sizeof places[0]; p++) {
        for (size_t i = 0; i < ng; i++) check_one_special(k, 5000, places[p], 0, gs[i]);
        for (size_t i = 0; i < no; i++) check_one_special(k, 5000, places[p], 1, os[i]);
    }
    size_t big = SG_NT_MIN_BYTES / 6 + 4099;
    check_one_special(k, big, big, 0, 0);
    check_one_special(k, big, big / 2, 0, gs[0]);
    check_one_special(k, big, big - 3, 1, os[0]);
}

/* int8 / uint8: all 65536 (g, o) pairs. */
static void test_variant_all_pairs8(void **state) {
    const sg_kernel *k = (const sg_kernel *)*state;
    if (!sg_isa_supported(k->isa)) skip();
    const sg_kernel *ref = reference_of(k->dtype);
    static uint8_t g[65536], o[65536], y[65536], w[65536];
    for (size_t i = 0; i < 65536; i++) {
        g[i] = (uint8_t)(i >> 8);
        o[i] = (uint8_t)i;
    }
    ref->fn(65536, g, o, w);
    k->fn(65536, g, o, y);
    for (size_t i = 0; i < 65536; i++)
        if (y[i] != w[i])
            fail_msg("%s: g=%02x o=%02x gives %02x, want %02x", k->name, g[i], o[i], y[i], w[i]);
}

/* The scalar kernels (the reference of the tests above, written without branches) against the
   element model sg_ref_element, the reference functions of docs/contract.md, "Per-dtype
   computation": random bit patterns with special values (and int32 saturation edges), in place;
   for 16-bit types every o and every g; for 8-bit types every pair. */
static void expect_model(const sg_kernel *k, size_t n, const void *g, const void *o, int mode) {
    size_t es = selugrad_dtype_size(k->dtype);
    unsigned char *y = malloc(n * es), *gc = malloc(n * es), *oc = malloc(n * es);
    assert_true(y && gc && oc);
    memcpy(gc, g, n * es);
    memcpy(oc, o, n * es);
    unsigned char *out = mode == 1 ? gc : mode == 2 ? oc : y;
    k->fn(n, gc, oc, out);
    for (size_t i = 0; i < n; i++) {
        unsigned char want[4];
        assert_true(sg_ref_element(k->dtype, (const unsigned char *)g + i * es,
                                   (const unsigned char *)o + i * es, want));
        if (memcmp(out + i * es, want, es) != 0) {
            uint32_t gv = 0, ov = 0, yv = 0, wv = 0;
            memcpy(&gv, (const unsigned char *)g + i * es, es);
            memcpy(&ov, (const unsigned char *)o + i * es, es);
            memcpy(&yv, out + i * es, es);
            memcpy(&wv, want, es);
            fail_msg("%s (mode %d): element %zu (g=%x o=%x) gives %x, want %x", k->name, mode, i,
                     gv, ov, yv, wv);
        }
    }
    free(y);
    free(gc);
    free(oc);
}

static void test_scalar_model(void **state) {
    (void)state;
    enum { N = 65536 * 4 };
    unsigned char *g = malloc(N * 4), *o = malloc(N * 4);
    assert_true(g && o);
    for (size_t i = 0; i < sg_kernel_count; i++) {
        const sg_kernel *k = &sg_kernels[i];
        if (k->isa != SG_ISA_SCALAR) continue;
        size_t es = selugrad_dtype_size(k->dtype);
        for (int mode = 0; mode <= 2; mode++) {
            fill(g, 70000, es);
            fill(o, 70000, es);
            expect_model(k, 70000, g, o, mode);
        }
        if (es == 2) {
            uint16_t *g16 = (uint16_t *)(void *)g, *o16 = (uint16_t *)(void *)o;
            for (size_t j = 0; j < N; j++) {
                o16[j] = (uint16_t)j;
                g16[j] = (j >> 16) == 0 ? (uint16_t)0x3C00 : (uint16_t)rnd();
            }
            expect_model(k, N, g, o, 0);
            for (size_t j = 0; j < N; j++) {
                g16[j] = (uint16_t)j;
                o16[j] = special16[(j >> 16) * 5 % (sizeof special16 / 2)];
            }
            expect_model(k, N, g, o, 0);
        } else if (es == 1) {
            for (size_t j = 0; j < 65536; j++) {
                g[j] = (unsigned char)(j >> 8);
                o[j] = (unsigned char)j;
            }
            expect_model(k, 65536, g, o, 0);
        }
    }
    free(g);
    free(o);
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

/* What runs obeys SELUGRAD_MAX_ISA (this program is also registered under each cap). */
static void test_env_cap(void **state) {
    (void)state;
    const char *env = getenv("SELUGRAD_MAX_ISA");
    sg_isa cap;
    if (env == NULL || !sg_isa_from_name(env, &cap)) return;
    print_message("SELUGRAD_MAX_ISA=%s\n", env);
    for (int d = 0; d < SG_DTYPE_COUNT; d++) {
        const sg_kernel *k = sg_kernel_for(sg_dtype_list[d]);
        assert_non_null(k);
        assert_true(sg_isa_allowed(k->isa, cap));
        assert_ptr_equal(k, sg_kernel_select(sg_dtype_list[d], cap));
        assert_string_equal(selugrad_kernel_name(sg_dtype_list[d]), k->name);
        print_message("  %s -> %s\n", selugrad_dtype_name(sg_dtype_list[d]), k->name);
    }
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
#else
    skip();
#endif
}

int main(void) {
    struct CMUnitTest *tests = calloc(sg_kernel_count * 3 + 5, sizeof *tests);
    char(*names)[96] = calloc(sg_kernel_count * 2, sizeof *names);
    if (tests == NULL || names == NULL) return 1;
    size_t nt = 0, skipped = 0;
    for (size_t i = 0; i < sg_kernel_count; i++) {
        const sg_kernel *k = &sg_kernels[i];
        if (k->isa == SG_ISA_SCALAR) continue;
        if (!sg_isa_supported(k->isa)) {
            printf("SKIPPED %s: this CPU (or OS) lacks %s\n", k->name, sg_isa_name(k->isa));
            skipped++;
        }
        tests[nt] = (struct CMUnitTest){k->name, test_variant, NULL, NULL, (void *)k};
        nt++;
        size_t es = selugrad_dtype_size(k->dtype);
        if (es <= 2) {
            snprintf(names[i], sizeof names[i], "%s_all_pairs", k->name);
            tests[nt] = (struct CMUnitTest){
                names[i], es == 2 ? test_variant_all_o16 : test_variant_all_pairs8, NULL, NULL,
                (void *)k};
            nt++;
        }
        if (es == 2) {
            snprintf(names[sg_kernel_count + i], sizeof names[0], "%s_one_special", k->name);
            tests[nt] = (struct CMUnitTest){names[sg_kernel_count + i], test_variant_one_special,
                                            NULL, NULL, (void *)k};
            nt++;
        }
    }
    tests[nt++] = (struct CMUnitTest){"scalar_model", test_scalar_model, NULL, NULL, NULL};
    tests[nt++] = (struct CMUnitTest){"dispatch_caps", test_dispatch_caps, NULL, NULL, NULL};
    tests[nt++] = (struct CMUnitTest){"isa_names", test_isa_names, NULL, NULL, NULL};
    tests[nt++] = (struct CMUnitTest){"env_cap", test_env_cap, NULL, NULL, NULL};
    tests[nt++] = (struct CMUnitTest){"xgetbv_gate", test_xgetbv_gate, NULL, NULL, NULL};
    printf("%zu variant(s) skipped for lack of CPU support\n", skipped);
    fflush(stdout);
    int rc = _cmocka_run_group_tests("kernel_variants", tests, nt, NULL, NULL);
    free(tests);
    free(names);
    return rc;
}
