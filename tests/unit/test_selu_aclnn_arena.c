/*
 * aclnnSelu and aclnnInplaceSelu on random descriptors over one aclrtMalloc arena: ranks 0..5,
 * dims 0..4, strides 0..6 or row-major, offsets, data pointers anywhere in the arena (so self and
 * out may alias, interleave or overlap), every self dtype and every out dtype (any pair is
 * accepted). aclCreateTensor or phase 1 may refuse a descriptor, and then nothing is written. An
 * accepted call gives at every out element the golden forward (tests/model/selu_golden.c, with the
 * library's exponential) of self as it was before the call, converted to out's dtype as
 * docs/aclnn.md, "Output dtype" says (worked out in double here), and leaves every other byte of
 * the arena as it was.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aclnn_test_util.h"
#include "aclnnop/aclnn_selu.h"
#include "kernels/ref/selu_exp.h"
#include "model/selu_golden.h"

enum { ARENA = 4096, MAXR = 5, ROUNDS = 6000 };

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static unsigned rnd(unsigned n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static uint32_t lib_exp(uint32_t x) {
    return sg_f32_bits(sg_selu_expf(sg_bits_f32(x)));
}

static const aclDataType dts[5] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8};

static size_t esz(aclDataType d) {
    return d == ACL_FLOAT || d == ACL_INT32 ? 4 : d == ACL_INT8 ? 1 : 2;
}

static int is_float(aclDataType d) {
    return d == ACL_FLOAT || d == ACL_FLOAT16 || d == ACL_BF16;
}

typedef struct view {
    int rank;
    int64_t dims[MAXR], strides[MAXR], offset;
} view;

/* The element offset of the lin-th element (row-major order). */
static int64_t elem_at(const view *v, int64_t lin) {
    int64_t off = v->offset;
    for (int i = v->rank - 1; i >= 0; i--) {
        off += (lin % v->dims[i]) * v->strides[i];
        lin /= v->dims[i];
    }
    return off;
}

/* The forward of one element of dtype d from the golden. */
static void golden(aclDataType d, const unsigned char *x, unsigned char *y) {
    uint32_t u32;
    uint16_t u16;
    int32_t s32;
    switch (d) {
    case ACL_FLOAT:
        memcpy(&u32, x, 4);
        u32 = gs_selu_f32(u32, lib_exp);
        memcpy(y, &u32, 4);
        break;
    case ACL_FLOAT16:
    case ACL_BF16:
        memcpy(&u16, x, 2);
        u16 = d == ACL_FLOAT16 ? gs_selu_f16(u16, lib_exp) : gs_selu_bf16(u16, lib_exp);
        memcpy(y, &u16, 2);
        break;
    case ACL_INT32:
        memcpy(&s32, x, 4);
        s32 = gs_selu_s32(s32, lib_exp);
        memcpy(y, &s32, 4);
        break;
    default:
        *(int8_t *)y = gs_selu_s8(*(const int8_t *)x, lib_exp);
        break;
    }
}

/* A value of dtype `from` converted to `to` (docs/aclnn.md, "Output dtype"): floating through
   fp32 and narrowed to nearest even (a NaN, the forward's canonical one, to the target's
   canonical NaN), integers to floating through fp32 to nearest even, int8 to int32 exactly,
   int32 to int8 by its low byte, floating to int32 truncated and saturated (NaN 0) and to int8
   by that int32's low byte. */
static void convert(aclDataType to, unsigned char *dst, aclDataType from,
                    const unsigned char *src) {
    if (to == from) {
        memcpy(dst, src, esz(to));
        return;
    }
    if (!is_float(from) && !is_float(to)) {
        int32_t v;
        if (from == ACL_INT8) {
            v = *(const int8_t *)src;
        } else {
            memcpy(&v, src, 4);
        }
        if (to == ACL_INT8)
            *dst = (unsigned char)((uint32_t)v & 0xFFu);
        else
            memcpy(dst, &v, 4);
        return;
    }
    double v; /* the value as fp32 holds it */
    uint32_t u32 = 0;
    uint16_t u16 = 0;
    int32_t s32;
    if (from == ACL_FLOAT) {
        memcpy(&u32, src, 4);
        v = gm_value(u32, gm_f32);
    } else if (from == ACL_FLOAT16 || from == ACL_BF16) {
        memcpy(&u16, src, 2);
        v = gm_value(u16, from == ACL_FLOAT16 ? gm_f16 : gm_bf16);
    } else if (from == ACL_INT32) {
        memcpy(&s32, src, 4);
        v = gm_round((double)s32, gm_f32);
    } else {
        v = (double)*(const int8_t *)src;
    }
    if (!is_float(to)) { /* truncated toward zero, saturated to int32, NaN 0; int8: low byte */
        double t = isnan(v) ? 0.0 : trunc(v);
        int32_t i = t >= 2147483647.0 ? INT32_MAX : (t <= -2147483648.0 ? INT32_MIN : (int32_t)t);
        if (to == ACL_INT8)
            *dst = (unsigned char)((uint32_t)i & 0xFFu);
        else
            memcpy(dst, &i, 4);
        return;
    }
    if (to == ACL_FLOAT) {
        u32 = isnan(v) ? 0x7FC00000u : gm_bits(v, gm_f32);
        memcpy(dst, &u32, 4);
    } else {
        gm_fmt f = to == ACL_FLOAT16 ? gm_f16 : gm_bf16;
        u16 = isnan(v) ? (to == ACL_FLOAT16 ? 0x7E00u : 0x7FC0u)
                       : (uint16_t)gm_bits(gm_round(v, f), f);
        memcpy(dst, &u16, 2);
    }
}

static void test_random_descriptors(void **state) {
    (void)state;
    unsigned char *arena = NULL;
    unsigned char *before = malloc(ARENA), *expect = malloc(ARENA);
    assert_non_null(before);
    assert_non_null(expect);
    assert_int_equal(aclrtMalloc((void **)&arena, ARENA, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    int accepted = 0, cast = 0, overlapping = 0;
    for (int round = 0; round < ROUNDS; round++) {
        aclDataType dx = dts[rnd(5)], dy = rnd(3) ? dx : dts[rnd(5)];
        int inplace = rnd(4) == 0;
        if (inplace) dy = dx;
        view vx, vy;
        vx.rank = (int)rnd(MAXR + 1);
        for (int i = 0; i < vx.rank; i++) vx.dims[i] = rnd(4) ? 1 + rnd(4) : rnd(5);
        vy = vx;
        view *vs[2] = {&vx, &vy};
        for (int t = 0; t < 2; t++) {
            int64_t run = 1;
            int row_major = rnd(2);
            for (int i = vs[t]->rank - 1; i >= 0; i--) {
                vs[t]->strides[i] = row_major ? run : rnd(7);
                run *= vs[t]->dims[i] ? vs[t]->dims[i] : 1;
            }
            vs[t]->offset = rnd(64);
        }
        size_t xb = rnd(ARENA / 2) & ~(size_t)3;
        size_t yb = inplace ? xb : rnd(ARENA / 2) & ~(size_t)3;
        if (inplace) vy = vx;
        const int64_t sx[1] = {(int64_t)((ARENA - xb) / esz(dx))};
        const int64_t sy[1] = {(int64_t)((ARENA - yb) / esz(dy))};
        for (size_t i = 0; i < ARENA; i++) arena[i] = (unsigned char)rnd(256);
        memcpy(before, arena, ARENA);
        aclTensor *tx = aclCreateTensor(vx.dims, (uint64_t)vx.rank, dx, vx.strides, vx.offset,
                                        ACL_FORMAT_ND, sx, 1, arena + xb);
        aclTensor *ty = inplace ? tx
                                : aclCreateTensor(vy.dims, (uint64_t)vy.rank, dy, vy.strides,
                                                  vy.offset, ACL_FORMAT_ND, sy, 1, arena + yb);
        uint64_t ws = 0;
        aclOpExecutor *ex = NULL;
        int rc = ACLNN_ERR_PARAM_INVALID;
        if (tx != NULL && ty != NULL)
            rc = inplace ? aclnnInplaceSeluGetWorkspaceSize(tx, &ws, &ex)
                         : aclnnSeluGetWorkspaceSize(tx, ty, &ws, &ex);
        if (rc != ACLNN_SUCCESS) {
            assert_memory_equal(before, arena, ARENA); /* refused: nothing written */
        } else {
            memcpy(expect, before, ARENA);
            int64_t n = 1;
            for (int i = 0; i < vx.rank; i++) n *= vx.dims[i];
            for (int64_t i = 0; i < n; i++) {
                unsigned char r[4], c[4];
                golden(dx, before + xb + (size_t)elem_at(&vx, i) * esz(dx), r);
                convert(dy, c, dx, r);
                memcpy(expect + yb + (size_t)elem_at(&vy, i) * esz(dy), c, esz(dy));
            }
            void *w = ws ? malloc(ws) : NULL;
            rc = inplace ? aclnnInplaceSelu(w, ws, ex, NULL) : aclnnSelu(w, ws, ex, NULL);
            if (rc == ACLNN_SUCCESS) rc = aclrtSynchronizeStream(NULL);
            free(w);
            assert_int_equal(rc, ACLNN_SUCCESS);
            if (memcmp(expect, arena, ARENA) != 0) {
                size_t k = 0;
                while (expect[k] == arena[k]) k++;
                print_error("round %d: byte %zu is %02x, expected %02x (self %d, out %d, rank %d, "
                            "in place %d)\n",
                            round, k, arena[k], expect[k], dx, dy, vx.rank, inplace);
                fail();
            }
            accepted++;
            cast += dx != dy;
            overlapping += !inplace && n > 0 && xb + 4 * 64 > yb && yb + 4 * 64 > xb;
        }
        aclDestroyTensor(tx);
        if (!inplace) aclDestroyTensor(ty);
    }
    /* the draw reaches what it is for */
    assert_true(accepted > ROUNDS / 2);
    assert_true(cast > ROUNDS / 10);
    assert_true(overlapping > 100);
    assert_int_equal(aclrtFree(arena), ACL_SUCCESS);
    free(before);
    free(expect);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_descriptors),
    };
    return cmocka_run_group_tests(tests, sgt_setup, sgt_teardown);
}
