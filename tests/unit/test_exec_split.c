/*
 * Results do not depend on how a call is split into tasks. For every kernel variant this CPU
 * runs, calls of 2 MiB per array (tasks of 256 KiB of traffic and more stream their stores,
 * smaller ones do not: kernels/nt_bytes.h) are run through the executor with task sizes from
 * tiny and odd to the whole call, on 2 and 3 threads, with y aligned to 64 bytes and one element
 * off, and in place: every result must be the bytes of one kernel call over the whole array,
 * which must match the scalar variant (the bit-exact model's twin). Inputs are ordinary values
 * with sparse specials (NaN, infinities, subnormals, zeros, extremes), so the 16-bit fast path
 * is taken and left at blocks scattered over the call. The forward kernels (one input) go
 * through the same splits. Streaming kernel calls cut their span into sub-streams
 * (kernels/x86_nt.h), so these calls also check that the parts, the blocks between and after
 * them, and the peel and tail around them give the same bits as one plain pass.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/dispatch.h"
#include "core/exec.h"
#include "core/pool.h"
#include "isa/cpu.h"
#include "test_rng.h"

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t rnd(void) {
    return sgt_xorshift64s(&rng);
}

/* One element of es bytes: mostly an ordinary value of the dtype, 1 in 512 random bits. */
static void fill(unsigned char *p, size_t n, selugrad_dtype dt) {
    size_t es = selugrad_dtype_size(dt);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rnd();
        uint32_t v = (uint32_t)(r >> 32);
        if ((r & 511u) != 0) {
            if (dt == SELUGRAD_FLOAT) /* sign, exponent 100..140, random mantissa */
                v = (v & 0x807FFFFFu) | ((100u + (uint32_t)(r >> 8) % 41u) << 23);
            else if (dt == SELUGRAD_FLOAT16) /* exponent 5..19 */
                v = (v & 0x83FFu) | ((5u + (uint32_t)(r >> 8) % 15u) << 10);
            else if (dt == SELUGRAD_BF16) /* exponent 100..140 */
                v = (v & 0x807Fu) | ((100u + (uint32_t)(r >> 8) % 41u) << 7);
        }
        memcpy(p + i * es, &v, es); /* little-endian: the low bytes */
    }
}

static const sg_kernel *scalar_twin(const sg_kernel *v) {
    return v->op == SG_OP_SELU ? sg_selu_kernel_select(v->dtype, SG_ISA_SCALAR)
                               : sg_kernel_select(v->dtype, SG_ISA_SCALAR);
}

static void check_kernel(const sg_kernel *v) {
    size_t es = selugrad_dtype_size(v->dtype);
    size_t n = ((size_t)2 << 20) / es + 777;
    size_t bytes = (n * es + 63) / 64 * 64 + 128; /* a multiple of the alignment, as C11 asks */
    unsigned char *g = aligned_alloc(64, bytes), *o = aligned_alloc(64, bytes);
    unsigned char *want = aligned_alloc(64, bytes), *y = aligned_alloc(64, bytes);
    unsigned char *twin = aligned_alloc(64, bytes);
    assert_true(g && o && want && y && twin);
    fill(g, n, v->dtype);
    fill(o, n, v->dtype);
    sg_kernel_call(v, n, g, o, want);
    sg_kernel_call(scalar_twin(v), n, g, o, twin);
    assert_memory_equal(want, twin, n * es);
    sg_plan base;
    sg_plan_make(&base, v, n, 2);
    const size_t blocks[] = {n / 60000 + 1, 4096 + 3, 65536, 300007, base.block, n / 3 + 1, n};
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
        for (unsigned nth = 2; nth <= 3; nth++)
            for (size_t off = 0; off <= es; off += es) {
                sg_plan p = base;
                p.nth = nth;
                p.block = blocks[b];
                p.tasks = (n + p.block - 1) / p.block;
                memset(y, 0x5A, n * es + 128);
                assert_int_equal(sg_plan_run(&p, g, o, y + off), SELUGRAD_OK);
                if (memcmp(y + off, want, n * es) != 0) {
                    print_error("%s: block %zu, %u threads, y offset %zu: results differ\n",
                                v->name, p.block, nth, off);
                    fail();
                }
                assert_int_equal(y[off + n * es], 0x5A); /* nothing written past the end */
                if (off) assert_int_equal(y[0], 0x5A);
            }
    /* in place, y == g, split in odd tasks */
    memcpy(y, g, n * es);
    sg_plan p = base;
    p.nth = 3;
    p.block = 4096 + 3;
    p.tasks = (n + p.block - 1) / p.block;
    assert_int_equal(sg_plan_run(&p, y, o, y), SELUGRAD_OK);
    assert_memory_equal(y, want, n * es);
    free(g), free(o), free(want), free(y), free(twin);
}

static void test_split_independent(void **state) {
    (void)state;
    int ran = 0;
    for (size_t i = 0; i < sg_kernel_count; i++) {
        const sg_kernel *v = &sg_kernels[i];
        if (!sg_isa_supported(v->isa)) {
            print_message("skipped %s: this CPU lacks its ISA\n", v->name);
            continue;
        }
        check_kernel(v);
        ran++;
    }
    assert_true(ran >= 6); /* the scalar variants at least */
}

static void test_split_independent_forward(void **state) {
    (void)state;
    int ran = 0;
    for (size_t i = 0; i < sg_selu_kernel_count; i++) {
        const sg_kernel *v = &sg_selu_kernels[i];
        if (!sg_isa_supported(v->isa)) {
            print_message("skipped %s: this CPU lacks its ISA\n", v->name);
            continue;
        }
        check_kernel(v);
        ran++;
    }
    assert_true(ran >= 5); /* the scalar variants at least */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_independent),
        cmocka_unit_test(test_split_independent_forward),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
