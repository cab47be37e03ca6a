/*
 * libFuzzer target for the native API: random dtypes, lengths, strides, offsets and aliasing of
 * y with the inputs inside one arena. Every accepted call must give the golden model's bits
 * at y's positions and leave every other byte of the arena as it was; every rejected call must
 * leave the arena untouched and a message behind.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/golden.h"
#include "selugrad/selugrad.h"

enum { ARENA = 4096 };

static const selugrad_dtype fz_dtypes[7] = {SELUGRAD_FLOAT,   SELUGRAD_FLOAT16, SELUGRAD_BF16,
                                            SELUGRAD_INT8,    SELUGRAD_UINT8,   SELUGRAD_INT32,
                                            (selugrad_dtype)5};

typedef struct fz_reader {
    const uint8_t *p;
    size_t n;
} fz_reader;

static unsigned fz_byte(fz_reader *r) {
    if (r->n == 0) return 0;
    r->n--;
    return *r->p++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static unsigned char arena[ARENA], before[ARENA], expect[ARENA];
    fz_reader r = {data, size};
    selugrad_dtype dt = fz_dtypes[fz_byte(&r) % 7];
    size_t es = selugrad_dtype_size(dt);
    size_t n = fz_byte(&r) % 200;
    ptrdiff_t st[3];
    size_t off[3];
    for (int i = 0; i < 3; i++) {
        st[i] = (ptrdiff_t)(fz_byte(&r) % 7) - 3;
        off[i] = (fz_byte(&r) * 16u + fz_byte(&r)) % (ARENA / 4);
    }
    unsigned mode = fz_byte(&r) % 4; /* 0 free, 1 y = g, 2 y = o, 3 contiguous API */
    for (size_t i = 0; i < ARENA; i++) arena[i] = (unsigned char)fz_byte(&r);
    if (es == 0) es = 1;
    if (mode == 3) st[0] = st[1] = st[2] = 1;
    /* keep every element of every operand inside the arena, at any byte address (the API takes
       any: docs/api.md) */
    unsigned char *base[3];
    for (int i = 0; i < 3; i++) {
        size_t reach = n > 0 ? (size_t)(n - 1) * (size_t)(st[i] < 0 ? -st[i] : st[i]) * es : 0;
        size_t o = off[i];
        if (st[i] < 0) o += reach;
        if (o + es > ARENA || (st[i] >= 0 && o + reach + es > ARENA)) return 0;
        base[i] = arena + o;
    }
    if (mode == 1) base[2] = base[0], st[2] = st[0];
    if (mode == 2) base[2] = base[1], st[2] = st[1];
    memcpy(before, arena, ARENA);
    selugrad_status s;
    if (mode == 3)
        s = selugrad_backward(dt, n, base[0], base[1], base[2]);
    else
        s = selugrad_backward_strided(dt, n, base[0], st[0], base[1], st[1], base[2], st[2]);
    if (s != SELUGRAD_OK) {
        if (memcmp(arena, before, ARENA) != 0 || selugrad_last_error()[0] == '\0') abort();
        return 0;
    }
    /* out-of-place semantics: the model reads the inputs as they were before the call */
    memcpy(expect, before, ARENA);
    for (size_t i = 0; i < n; i++) {
        ptrdiff_t k = (ptrdiff_t)i;
        gm_selugrad_element((int)dt, before + (base[0] - arena) + k * st[0] * (ptrdiff_t)es,
                            before + (base[1] - arena) + k * st[1] * (ptrdiff_t)es,
                            expect + (base[2] - arena) + k * st[2] * (ptrdiff_t)es);
    }
    if (memcmp(arena, expect, ARENA) != 0) abort();
    return 0;
}
