/* Element conversions; see convert.h. */
#include "convert.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../common/dtype.h"
#include "../kernels/ref/half.h"

static int sg_is_int(selugrad_dtype dt) {
    return sg_dtype_index(dt) >= 0 && !sg_dtype_is_float(dt);
}

static int64_t sg_load_int(selugrad_dtype dt, const void *p) {
    int32_t v32;
    switch (dt) {
    case SELUGRAD_INT8:
        return *(const int8_t *)p;
    case SELUGRAD_UINT8:
        return *(const uint8_t *)p;
    default:
        memcpy(&v32, p, 4);
        return v32;
    }
}

static float sg_load_float(selugrad_dtype dt, const void *p) {
    uint16_t h;
    float f;
    switch (dt) {
    case SELUGRAD_FLOAT16:
        memcpy(&h, p, 2);
        return sg_half_to_float(h);
    case SELUGRAD_BF16:
        memcpy(&h, p, 2);
        return sg_bf16_to_float(h);
    default:
        memcpy(&f, p, 4);
        return f;
    }
}

static void sg_store_int(selugrad_dtype dt, void *p, int64_t v) {
    int32_t v32 = (int32_t)(uint32_t)(uint64_t)v; /* the low 32 bits */
    switch (dt) {
    case SELUGRAD_INT8:
        *(int8_t *)p = (int8_t)(uint8_t)(uint64_t)v;
        break;
    case SELUGRAD_UINT8:
        *(uint8_t *)p = (uint8_t)(uint64_t)v;
        break;
    default:
        memcpy(p, &v32, 4);
        break;
    }
}

static void sg_store_float(selugrad_dtype dt, void *p, float f) {
    uint16_t h;
    switch (dt) {
    case SELUGRAD_FLOAT16:
        h = sg_float_to_half(f);
        memcpy(p, &h, 2);
        break;
    case SELUGRAD_BF16:
        h = sg_float_to_bf16(f);
        memcpy(p, &h, 2);
        break;
    default:
        memcpy(p, &f, 4);
        break;
    }
}

/* trunc toward zero, saturated to int32's range; NaN gives 0 */
static int64_t sg_float_to_int32(float f) {
    if (f != f) return 0;
    double t = trunc((double)f);
    return (int64_t)(t < -2147483648.0 ? -2147483648.0 : (t > 2147483647.0 ? 2147483647.0 : t));
}

void sg_convert(void *dst, selugrad_dtype to, const void *src, selugrad_dtype from, size_t n) {
    size_t si = selugrad_dtype_size(from), so = selugrad_dtype_size(to);
    const char *s = (const char *)src;
    char *d = (char *)dst;
    for (size_t i = 0; i < n; i++, s += si, d += so) {
        if (sg_is_int(from) && sg_is_int(to)) {
            sg_store_int(to, d, sg_load_int(from, s));
        } else if (sg_is_int(from)) {
            sg_store_float(to, d, (float)sg_load_int(from, s));
        } else if (sg_is_int(to)) { /* to int32, then its low byte for an 8-bit out */
            sg_store_int(to, d, sg_float_to_int32(sg_load_float(from, s)));
        } else {
            sg_store_float(to, d, sg_load_float(from, s));
        }
    }
}
