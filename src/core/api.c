/* The native API: validation in a fixed order, then plan and run. */
#include <stdint.h>

#include "../common/dtype.h"
#include "../common/error.h"
#include "../kernels/ref/half.h"
#include "dispatch.h"
#include "exec.h"
#include "parallel.h"

#define SG_STR2(x) #x
#define SG_STR(x)  SG_STR2(x)

const char *selugrad_version(void) {
    return SG_STR(SELUGRAD_VERSION_MAJOR) "." SG_STR(SELUGRAD_VERSION_MINOR) "." SG_STR(
        SELUGRAD_VERSION_PATCH);
}

int selugrad_version_number(void) {
    return SELUGRAD_VERSION_MAJOR * 10000 + SELUGRAD_VERSION_MINOR * 100 + SELUGRAD_VERSION_PATCH;
}

const char *selugrad_kernel_name(selugrad_dtype dtype) {
    const sg_kernel *k = sg_kernel_for(dtype);
    return k ? k->name : NULL;
}

const char *selugrad_forward_kernel_name(selugrad_dtype dtype) {
    const sg_kernel *k = sg_selu_kernel_for(dtype);
    return k ? k->name : NULL;
}

uint16_t selugrad_f32_to_f16(float x) {
    return sg_float_to_half(x);
}
float selugrad_f16_to_f32(uint16_t h) {
    return sg_half_to_float(h);
}
uint16_t selugrad_f32_to_bf16(float x) {
    return sg_float_to_bf16(x);
}
float selugrad_bf16_to_f32(uint16_t b) {
    return sg_bf16_to_float(b);
}

/* Bytes from the first element to the last of n elements of size es at stride s (elements),
   (n - 1) * |s| * es: at most PTRDIFF_MAX - es once sg_check's size check has passed. */
static uintptr_t sg_reach(size_t n, ptrdiff_t s, size_t es) {
    uintptr_t mag = s < 0 ? (uintptr_t)0 - (uintptr_t)s : (uintptr_t)s; /* no -PTRDIFF_MIN */
    return (uintptr_t)(n - 1) * mag * es;
}

/* Address span [lo, hi) touched by n elements of size es at base with stride s (elements); it
   lies inside the address space once sg_check's span check has passed. */
static void sg_span(const void *base, size_t n, ptrdiff_t s, size_t es, uintptr_t *lo,
                    uintptr_t *hi) {
    uintptr_t b = (uintptr_t)base, reach = sg_reach(n, s, es);
    *lo = s < 0 ? b - reach : b;
    *hi = (s < 0 ? b : b + reach) + es;
}

static int sg_spans_overlap(const void *a, ptrdiff_t as, const void *b, ptrdiff_t bs, size_t n,
                            size_t es) {
    uintptr_t alo, ahi, blo, bhi;
    sg_span(a, n, as, es, &alo, &ahi);
    sg_span(b, n, bs, es, &blo, &bhi);
    return alo < bhi && blo < ahi;
}

/* Checks shared by the entry points, in order: dtype, n == 0, pointers, sizes, y stride, overlap.
   nin inputs in[] with strides in_s[] and names names[]; allowed says whether the dtype is one the
   operator has (the forward has no UINT8). */
static selugrad_status sg_check(const char *fn, selugrad_dtype dtype, int allowed, size_t n,
                                int nin, const void *const in[], const ptrdiff_t in_s[],
                                const char *const names[], const void *y, ptrdiff_t ys) {
    size_t es = selugrad_dtype_size(dtype);
    if (es == 0 || !allowed) {
        char list[192];
        sg_dtype_list_text(list, sizeof list, nin == 1);
        if (es != 0) /* a dtype of the library this operator lacks: the forward's uint8 */
            return sg_fail(SELUGRAD_ERR_BAD_DTYPE,
                           "%s: dtype %s (%d) has no SELU forward (expected one of %s)", fn,
                           sg_dtype_enum_name(dtype), (int)dtype, list);
        return sg_fail(SELUGRAD_ERR_BAD_DTYPE, "%s: dtype %d is not one of %s", fn, (int)dtype,
                       list);
    }
    if (n == 0) return SELUGRAD_OK;
    for (int i = 0; i < nin; i++)
        if (in[i] == NULL)
            return sg_fail(SELUGRAD_ERR_NULL_POINTER, "%s: %s is NULL with n = %zu", fn, names[i],
                           n);
    if (y == NULL) return sg_fail(SELUGRAD_ERR_NULL_POINTER, "%s: y is NULL with n = %zu", fn, n);
    size_t max_stride = 1;
    for (int i = 0; i <= nin; i++) {
        ptrdiff_t s = i < nin ? in_s[i] : ys;
        size_t a = s < 0 ? (size_t)(-(s + 1)) + 1 : (size_t)s;
        if (a > max_stride) max_stride = a;
    }
    /* The span of n elements at the largest stride, ((n - 1) * stride + 1) * es bytes, must be
       at most PTRDIFF_MAX (half the address space; pointer differences within it are defined):
       (n - 1) * stride <= PTRDIFF_MAX / es - 1. es is 1, 2 or 4: a shift, not a division, and a
       division by the stride only where it is not 1 (this runs on every call). */
    size_t limit = ((size_t)PTRDIFF_MAX >> (es == 4 ? 2 : es == 2 ? 1 : 0)) - 1;
    if (max_stride > 1) limit /= max_stride;
    if ((n - 1) > limit)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                       "%s: n = %zu elements of %zu bytes at a stride of up to %zu span more than "
                       "%td bytes (PTRDIFF_MAX, half the address space)",
                       fn, n, es, max_stride, (ptrdiff_t)PTRDIFF_MAX);
    /* each array's span [lo, hi) from its pointer stays inside the address space, hi too (a
       negative stride reaches down from the pointer), so that sg_span's ends do not wrap */
    for (int i = 0; i <= nin; i++) {
        ptrdiff_t s = i < nin ? in_s[i] : ys;
        uintptr_t p = (uintptr_t)(i < nin ? in[i] : y);
        uintptr_t reach = sg_reach(n, s, es), down = s < 0 ? reach : 0, up = s < 0 ? 0 : reach;
        if (down > p || up + es > UINTPTR_MAX - p)
            return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                           "%s: %s's n = %zu elements at stride %td from %p reach outside the "
                           "address space",
                           fn, i < nin ? names[i] : "y", n, s, (const void *)p);
    }
    if (ys == 0 && n > 1)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                       "%s: y_stride is 0 with n = %zu, so outputs would share one element", fn, n);
    for (int i = 0; i < nin; i++) {
        /* in place: the same array; with one element its stride does not matter */
        if (in[i] == y && (in_s[i] == ys || n == 1)) continue;
        if (sg_spans_overlap(in[i], in_s[i], y, ys, n, es))
            return sg_fail(SELUGRAD_ERR_OVERLAP,
                           "%s: y overlaps %s without being the same array (same pointer and "
                           "stride); only exact in-place is allowed",
                           fn, names[i]);
    }
    return SELUGRAD_OK;
}

static const char *const sg_grad_names[2] = {"grad", "out"};

selugrad_status selugrad_backward_strided(selugrad_dtype dtype, size_t n, const void *grad,
                                          ptrdiff_t grad_stride, const void *out,
                                          ptrdiff_t out_stride, void *y, ptrdiff_t y_stride) {
    const void *const in[2] = {grad, out};
    const ptrdiff_t in_s[2] = {grad_stride, out_stride};
    selugrad_status st =
        sg_check("selugrad_backward_strided", dtype, 1, n, 2, in, in_s, sg_grad_names, y, y_stride);
    if (st != SELUGRAD_OK || n == 0) return st;
    sg_plan plan;
    sg_plan_make(&plan, sg_kernel_for(dtype), n, sg_threads_call());
    return sg_plan_run_strided(&plan, grad, grad_stride, out, out_stride, y, y_stride);
}

selugrad_status selugrad_backward(selugrad_dtype dtype, size_t n, const void *grad, const void *out,
                                  void *y) {
    const void *const in[2] = {grad, out};
    const ptrdiff_t in_s[2] = {1, 1};
    selugrad_status st =
        sg_check("selugrad_backward", dtype, 1, n, 2, in, in_s, sg_grad_names, y, 1);
    if (st != SELUGRAD_OK || n == 0) return st;
    const sg_kernel *k = sg_kernel_for(dtype);
    if (sg_run_small(k, n, grad, out, y)) return SELUGRAD_OK;
    sg_plan plan;
    sg_plan_make(&plan, k, n, sg_threads_call());
    return sg_plan_run(&plan, grad, out, y);
}

static const char *const sg_selu_names[1] = {"x"};

selugrad_status selugrad_forward_strided(selugrad_dtype dtype, size_t n, const void *x,
                                         ptrdiff_t x_stride, void *y, ptrdiff_t y_stride) {
    const void *const in[1] = {x};
    const ptrdiff_t in_s[1] = {x_stride};
    int allowed = sg_dtype_selu_bpe(dtype) != 0; /* the dtypes the forward has */
    selugrad_status st = sg_check("selugrad_forward_strided", dtype, allowed, n, 1, in, in_s,
                                  sg_selu_names, y, y_stride);
    if (st != SELUGRAD_OK || n == 0) return st;
    sg_plan plan;
    sg_plan_make(&plan, sg_selu_kernel_for(dtype), n, sg_threads_call());
    return sg_plan_run_strided(&plan, x, x_stride, NULL, 0, y, y_stride);
}

selugrad_status selugrad_forward(selugrad_dtype dtype, size_t n, const void *x, void *y) {
    const void *const in[1] = {x};
    const ptrdiff_t in_s[1] = {1};
    int allowed = sg_dtype_selu_bpe(dtype) != 0; /* the dtypes the forward has */
    selugrad_status st =
        sg_check("selugrad_forward", dtype, allowed, n, 1, in, in_s, sg_selu_names, y, 1);
    if (st != SELUGRAD_OK || n == 0) return st;
    const sg_kernel *k = sg_selu_kernel_for(dtype);
    if (sg_run_small(k, n, x, NULL, y)) return SELUGRAD_OK;
    sg_plan plan;
    sg_plan_make(&plan, k, n, sg_threads_call());
    return sg_plan_run(&plan, x, NULL, y);
}
