#include "view.h"

#include <stdint.h>

#include <stdlib.h>
#include <string.h>

/* Appends dim d with the views' strides s[v], merging into the previous dim when every view
   steps over it exactly. */
static void sg_joint_push(sg_joint *j, int k, int64_t d, const int64_t *s) {
    if (d == 1) return;
    if (j->rank > 0) {
        bool merge = true;
        int p = j->rank - 1;
        for (int v = 0; v < k; v++)
            if (s[v] > INT64_MAX / d || j->strides[v][p] != s[v] * d) merge = false;
        if (merge) {
            j->dims[p] *= d;
            for (int v = 0; v < k; v++) j->strides[v][p] = s[v];
            return;
        }
    }
    j->dims[j->rank] = d;
    for (int v = 0; v < k; v++) j->strides[v][j->rank] = s[v];
    j->rank++;
}

void sg_joint_make(sg_joint *j, const aclTensor *const *t, int k) {
    sg_joint raw;
    raw.rank = 0;
    int64_t s[3];
    for (uint64_t i = 0; i < t[0]->rank; i++) {
        for (int v = 0; v < k; v++) s[v] = t[v]->strides[i];
        sg_joint_push(&raw, k, t[0]->dims[i], s);
    }
    /* The walk order is free for an elementwise op: follow the last view (the output) in its
       memory order, largest stride first, so it is written sequentially (a transposed output
       becomes contiguous and the inputs are gathered instead). Stable insertion sort. */
    int order[SG_VIEW_MAX];
    for (int i = 0; i < raw.rank; i++) {
        int at = i;
        while (at > 0 && raw.strides[k - 1][order[at - 1]] < raw.strides[k - 1][i]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = i;
    }
    j->rank = 0;
    for (int i = 0; i < raw.rank; i++) {
        for (int v = 0; v < k; v++) s[v] = raw.strides[v][order[i]];
        sg_joint_push(j, k, raw.dims[order[i]], s);
    }
}

bool sg_joint_contiguous(const sg_joint *j, int v) {
    int64_t run = 1;
    for (int i = j->rank; i-- > 0;) {
        if (j->strides[v][i] != run) return false;
        run *= j->dims[i];
    }
    return true;
}

int64_t sg_joint_reach(const sg_joint *j, int v) {
    int64_t reach = 0;
    for (int i = 0; i < j->rank; i++) reach += (j->dims[i] - 1) * j->strides[v][i];
    return reach;
}

static int sg_cmp_pair(const void *a, const void *b) {
    const int64_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Advances the multi-index idx over dims 0..top of view v (last fastest) and the element offset
 *at with it; false once every index has wrapped (the walk is over). */
static bool sg_odometer_step(const sg_joint *j, int v, int top, int64_t *idx, int64_t *at) {
    for (int i = top; i >= 0; i--) {
        *at += j->strides[v][i];
        if (++idx[i] < j->dims[i]) return true;
        *at -= j->strides[v][i] * j->dims[i];
        idx[i] = 0;
    }
    return false;
}

static int sg_cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Sorts the n element offsets of the view; true if two are equal. */
static bool sg_sorted_overlaps(const sg_joint *j, int v, int64_t n, bool *unproven) {
    int64_t *offs = malloc((size_t)n * sizeof *offs);
    if (offs == NULL) return *unproven = true; /* cannot prove it safe: treat as overlapping */
    int64_t idx[SG_VIEW_MAX] = {0};
    int64_t at = 0, k = 0;
    do offs[k++] = at;
    while (sg_odometer_step(j, v, j->rank - 1, idx, &at));
    qsort(offs, (size_t)k, sizeof *offs, sg_cmp_i64);
    bool dup = false;
    for (int64_t i = 1; i < k && !dup; i++) dup = offs[i] == offs[i - 1];
    free(offs);
    return dup;
}

/* Marks every address of the view in a bitmap; true on the first address seen twice. */
static bool sg_bitmap_overlaps(const sg_joint *j, int v, int64_t span, bool *unproven) {
    unsigned char *bits = calloc((size_t)(span / 8 + 1), 1);
    if (bits == NULL) return *unproven = true; /* cannot prove it safe: treat as overlapping */
    int64_t idx[SG_VIEW_MAX] = {0};
    int64_t at = 0;
    bool dup = false;
    for (;;) {
        unsigned char m = (unsigned char)(1u << (at & 7));
        if (bits[at >> 3] & m) {
            dup = true;
            break;
        }
        bits[at >> 3] |= m;
        if (!sg_odometer_step(j, v, j->rank - 1, idx, &at)) break;
    }
    free(bits);
    return dup;
}

bool sg_joint_self_overlaps(const sg_joint *j, int v, bool *unproven) {
    bool spare;
    if (unproven == NULL) unproven = &spare;
    *unproven = false;
    /* Sorted by stride, each stride beyond the reach of the smaller ones proves no overlap. */
    int64_t pairs[SG_VIEW_MAX][2];
    for (int i = 0; i < j->rank; i++) {
        pairs[i][0] = j->strides[v][i];
        pairs[i][1] = j->dims[i];
        if (pairs[i][0] == 0) return true; /* every dim kept is longer than 1 */
    }
    qsort(pairs, (size_t)j->rank, sizeof pairs[0], sg_cmp_pair);
    int64_t reach = 0;
    bool proven = true;
    for (int i = 0; i < j->rank; i++) {
        if (pairs[i][0] <= reach) proven = false;
        reach += (pairs[i][1] - 1) * pairs[i][0];
    }
    if (proven) return false;
    /* Interleaved strides (e.g. dims {3,2} strides {2,3}) may still be disjoint: check exactly,
       by sorting the offsets of a view of up to 4M elements, else with a bitmap of its span. A
       larger view whose span also exceeds 2^34 elements is not checked and counts as
       overlapping (docs/aclnn.md). */
    int64_t n = 1;
    for (int i = 0; i < j->rank; i++) n *= j->dims[i];
    if (n <= ((int64_t)1 << 22)) return sg_sorted_overlaps(j, v, n, unproven);
    if (reach > ((int64_t)1 << 34)) return *unproven = true;
    return sg_bitmap_overlaps(j, v, reach + 1, unproven);
}

/* n elements of es bytes from src (step sstep bytes) to dst (step dstep bytes). The switch sits
   outside the loop so each case is a plain typed move. */
static void sg_copy_run(char *dst, ptrdiff_t dstep, const char *src, ptrdiff_t sstep, int64_t n,
                        size_t es) {
    switch (es) {
    case 1:
        for (int64_t i = 0; i < n; i++, dst += dstep, src += sstep) memcpy(dst, src, 1);
        break;
    case 2:
        for (int64_t i = 0; i < n; i++, dst += dstep, src += sstep) memcpy(dst, src, 2);
        break;
    case 4:
        for (int64_t i = 0; i < n; i++, dst += dstep, src += sstep) memcpy(dst, src, 4);
        break;
    default:
        for (int64_t i = 0; i < n; i++, dst += dstep, src += sstep) memcpy(dst, src, es);
        break;
    }
}

/* Copies between view v and its packed (row-major) image, row by row. */
static void sg_copy_rows(char *view, char *packed, const sg_joint *j, int v, size_t es,
                         bool to_packed) {
    int r = j->rank;
    int64_t n = j->dims[r - 1], s = j->strides[v][r - 1];
    size_t row = (size_t)n * es;
    int64_t idx[SG_VIEW_MAX] = {0};
    int64_t at = 0;
    for (;;) {
        char *p = view + (size_t)at * es;
        if (s == 1) {
            if (to_packed)
                memcpy(packed, p, row);
            else
                memcpy(p, packed, row);
        } else {
            ptrdiff_t vstep = (ptrdiff_t)s * (ptrdiff_t)es, pstep = (ptrdiff_t)es;
            if (to_packed)
                sg_copy_run(packed, pstep, p, vstep, n, es);
            else
                sg_copy_run(p, vstep, packed, pstep, n, es);
        }
        packed += row;
        if (!sg_odometer_step(j, v, r - 2, idx, &at)) break;
    }
}

/* 16 x 16 with the packed side innermost measured best for a 4096 x 4096 f32 transpose (29 ms;
   32 x 32: 73 ms; the view-side-innermost order: 99..455 ms), see docs/aclnn.md. */
enum { SG_TILE = 16 };

/* Like sg_copy_rows for a view whose smallest stride is on dim kd, not the inner one (e.g. a
   transposed view): copies SG_TILE x SG_TILE tiles of (kd, inner) so both sides stay in cache
   (and clear of the set conflicts of power-of-two strides). */
static void sg_copy_tiled(char *view, char *packed, const sg_joint *j, int v, size_t es,
                          bool to_packed, int kd) {
    int r = j->rank, in = r - 1;
    int64_t ps[SG_VIEW_MAX], run = 1;
    for (int i = r - 1; i >= 0; i--) {
        ps[i] = run;
        run *= j->dims[i];
    }
    const int64_t *vs = j->strides[v];
    int64_t dk = j->dims[kd], di = j->dims[in];
    ptrdiff_t vstep = (ptrdiff_t)vs[in] * (ptrdiff_t)es, pstep = (ptrdiff_t)es;
    int64_t idx[SG_VIEW_MAX] = {0};
    int64_t vat = 0, pat = 0;
    for (;;) {
        for (int64_t a0 = 0; a0 < dk; a0 += SG_TILE)
            for (int64_t b0 = 0; b0 < di; b0 += SG_TILE) {
                int64_t a1 = a0 + SG_TILE < dk ? a0 + SG_TILE : dk;
                int64_t b1 = b0 + SG_TILE < di ? b0 + SG_TILE : di;
                for (int64_t a = a0; a < a1; a++) {
                    char *q = view + (size_t)(vat + a * vs[kd] + b0 * vs[in]) * es;
                    char *p = packed + (size_t)(pat + a * ps[kd] + b0) * es;
                    if (to_packed)
                        sg_copy_run(p, pstep, q, vstep, b1 - b0, es);
                    else
                        sg_copy_run(q, vstep, p, pstep, b1 - b0, es);
                }
            }
        int i = r - 2;
        for (; i >= 0; i--) {
            if (i == kd) continue;
            vat += vs[i];
            pat += ps[i];
            if (++idx[i] < j->dims[i]) break;
            vat -= vs[i] * j->dims[i];
            pat -= ps[i] * j->dims[i];
            idx[i] = 0;
        }
        if (i < 0) break;
    }
}

/* Chooses how to copy between view v and its packed image. */
static void sg_view_copy(char *view, char *packed, const sg_joint *j, int v, size_t es,
                         bool to_packed) {
    int r = j->rank;
    if (r == 0) {
        if (to_packed)
            memcpy(packed, view, es);
        else
            memcpy(view, packed, es);
        return;
    }
    int64_t inner = j->strides[v][r - 1];
    int kd = -1;
    if (inner > 1)
        for (int i = 0; i < r - 1; i++)
            if (j->strides[v][i] > 0 && j->strides[v][i] < inner &&
                (kd < 0 || j->strides[v][i] < j->strides[v][kd]))
                kd = i;
    if (kd >= 0)
        sg_copy_tiled(view, packed, j, v, es, to_packed, kd);
    else
        sg_copy_rows(view, packed, j, v, es, to_packed);
}

void sg_view_gather(void *dst, const void *base, const sg_joint *j, int v, size_t es) {
    sg_view_copy((char *)(uintptr_t)base, dst, j, v, es, true);
}

void sg_view_scatter(void *base, const void *src, const sg_joint *j, int v, size_t es) {
    sg_view_copy(base, (char *)(uintptr_t)src, j, v, es, false);
}
