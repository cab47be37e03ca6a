#include "view.h"

#include <stdlib.h>
#include <string.h>

void sg_joint_make(sg_joint *j, const aclTensor *const *t, int k) {
    j->rank = 0;
    uint64_t r = t[0]->rank;
    for (uint64_t i = 0; i < r; i++) {
        int64_t d = t[0]->dims[i];
        if (d == 1) continue;
        /* Merge into the previous kept dim when each view steps over it exactly. */
        if (j->rank > 0) {
            bool merge = true;
            int p = j->rank - 1;
            for (int v = 0; v < k; v++)
                if (j->strides[v][p] != t[v]->strides[i] * d) merge = false;
            if (merge) {
                j->dims[p] *= d;
                for (int v = 0; v < k; v++) j->strides[v][p] = t[v]->strides[i];
                continue;
            }
        }
        j->dims[j->rank] = d;
        for (int v = 0; v < k; v++) j->strides[v][j->rank] = t[v]->strides[i];
        j->rank++;
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

/* Marks every address of the view in a bitmap; true on the first address seen twice. */
static bool sg_bitmap_overlaps(const sg_joint *j, int v, int64_t span) {
    unsigned char *bits = calloc((size_t)(span / 8 + 1), 1);
    if (bits == NULL) return true; /* cannot prove it safe: treat as overlapping */
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
        int i = j->rank - 1;
        for (; i >= 0; i--) {
            at += j->strides[v][i];
            if (++idx[i] < j->dims[i]) break;
            at -= j->strides[v][i] * j->dims[i];
            idx[i] = 0;
        }
        if (i < 0) break;
    }
    free(bits);
    return dup;
}

bool sg_joint_self_overlaps(const sg_joint *j, int v) {
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
    /* Interleaved strides (e.g. dims {3,2} strides {2,3}) may still be disjoint: check exactly. */
    if (reach > ((int64_t)1 << 34)) return true;
    return sg_bitmap_overlaps(j, v, reach + 1);
}

/* Calls the row copy for every innermost row of view v, in row-major order. */
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
            for (int64_t e = 0; e < n; e++) {
                char *q = p + (size_t)(e * s) * es;
                if (to_packed)
                    memcpy(packed + (size_t)e * es, q, es);
                else
                    memcpy(q, packed + (size_t)e * es, es);
            }
        }
        packed += row;
        int i = r - 2;
        for (; i >= 0; i--) {
            at += j->strides[v][i];
            if (++idx[i] < j->dims[i]) break;
            at -= j->strides[v][i] * j->dims[i];
            idx[i] = 0;
        }
        if (i < 0) break;
    }
}

void sg_view_gather(void *dst, const void *base, const sg_joint *j, int v, size_t es) {
    sg_view_copy((char *)(uintptr_t)base, dst, j, v, es, true);
}

void sg_view_scatter(void *base, const void *src, const sg_joint *j, int v, size_t es) {
    sg_view_copy(base, (char *)(uintptr_t)src, j, v, es, false);
}
