/*
 * The 16-bit fixed-point form of int8 / uint8 SeluGrad (src/kernels/small_int_fixed.h), lane by
 * lane in scalar code that does what the AVX-512 and AVX2 kernels do (16-bit wrapping products,
 * shifts, the table lookups with their index bits), against the golden model (tests/model) on
 * every int8 pair and every uint8 value; and the factor K / 256 against fp16(o + SA) of the
 * golden's rounding for every negative int8 o; the uint8 rows tables of the AVX2 kernel on every
 * uint8 value. The kernels themselves run every pair in
 * test_battery_int8; this test shows where the derivation or a table would be wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "kernels/small_int_fixed.h"
#include "model/golden.h"

/* VPMULHW / VPMULHUW and VPMULLW on one lane. */
static int16_t mulhi_s(int16_t a, int16_t b) {
    return (int16_t)(((int32_t)a * (int32_t)b) >> 16);
}
static uint16_t mulhi_u(uint16_t a, uint16_t b) {
    return (uint16_t)(((uint32_t)a * (uint32_t)b) >> 16);
}
static uint16_t mullo(uint16_t a, uint16_t b) {
    return (uint16_t)((uint32_t)a * (uint32_t)b);
}

/* K as the kernels assemble it from o's bytes. */
static uint16_t k_of(int8_t o) {
    unsigned hi = (unsigned)(uint8_t)((o < 0 ? o : 0) + 1);
    unsigned lo = o >= 0 ? SG_SMALL_K_LO_SCALE : o > -18 ? SG_SMALL_K_LO_NEAR : SG_SMALL_K_LO_FAR;
    return (uint16_t)(hi << 8 | lo);
}

/* VPSHUFB on the high byte of a 16-bit lane of a 16-entry table (bit 7 set: 0). */
static unsigned pshufb_hi(const uint8_t tab[16], uint16_t idx) {
    unsigned b = idx >> 8;
    return b & 0x80 ? 0 : tab[b & 15];
}

/* The same on the low byte. */
static unsigned pshufb_lo(const uint8_t tab[16], uint16_t idx) {
    unsigned b = idx & 0xFF;
    return b & 0x80 ? 0 : tab[b & 15];
}

static int8_t sat8(int v) {
    return (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v);
}
static uint8_t satu8(int v) {
    return (uint8_t)(v > 255 ? 255 : v < 0 ? 0 : v);
}

/* K as the AVX-512 int8 kernel assembles it: the bytes of o < 0's K in every lane (high byte
   o + 1 saturated, low byte by o > -18), then a signed 16-bit min with 269. */
static uint16_t k_of_min(int8_t o) {
    int hi = o + 1 > 127 ? 127 : o + 1;
    unsigned lo = o > -18 ? SG_SMALL_K_LO_NEAR : SG_SMALL_K_LO_FAR;
    int16_t k = (int16_t)(uint16_t)((unsigned)(uint8_t)hi << 8 | lo);
    return (uint16_t)(k < SG_SMALL_K_SCALE ? k : SG_SMALL_K_SCALE);
}

static void test_factor(void **state) {
    (void)state;
    double sa = gm_value(0x3F08, gm_f16); /* SA in fp16, docs/contract.md */
    for (int o = -128; o < 0; o++) {
        double t = gm_round((double)o + sa, gm_f16);
        assert_true((double)(int16_t)k_of((int8_t)o) / 256.0 == t);
    }
    for (int o = -128; o < 128; o++) assert_int_equal(k_of_min((int8_t)o), k_of((int8_t)o));
    assert_int_equal(k_of(0), (uint16_t)SG_SMALL_K_SCALE);
    assert_int_equal(k_of(127), (uint16_t)SG_SMALL_K_SCALE);
    assert_true(SG_SMALL_K_SCALE / 256.0 == gm_value(0x3C34, gm_f16)); /* scale in fp16 */
}

static void test_s8_every_pair(void **state) {
    (void)state;
    uint16_t thr[64];
    uint8_t h8[16];
    for (int i = 0; i < 64; i++) thr[i] = (uint16_t)SG_S8_THR512(i);
    for (int i = 0; i < 16; i++) h8[i] = (uint8_t)SG_S8_H256(i);
    long bad512 = 0, bad256 = 0;
    for (int g = -128; g < 128; g++) {
        for (int o = -128; o < 128; o++) {
            int8_t want = gm_selugrad_s8((int8_t)g, (int8_t)o);
            uint16_t g8 = (uint16_t)(g * 256), k = k_of((int8_t)o);
            int16_t n = mulhi_s((int16_t)g8, (int16_t)k);
            uint16_t rr = mullo(g8, k), un = (uint16_t)n;
            /* AVX-512: VPERMI2W index ((n >> 3) ^ (n << 5)) & 63, unsigned compare */
            unsigned i512 = ((unsigned)(uint16_t)(n >> 3) ^ (uint16_t)(un << 5)) & 63;
            int y512 = n + (rr >= thr[i512]);
            /* AVX2: index |n| << 5 (VPABSW, VPSLLW), h ^ 0xFFFF for odd n, signed compare of
               (r * 256) ^ 0x8000 with it (the table's low byte: any, here the pshufb of the
               index's low byte, as in the kernel) */
            uint16_t idx = (uint16_t)((uint16_t)(n < 0 ? -n : n) << 5);
            uint16_t t =
                (uint16_t)((pshufb_hi(h8, idx) << 8 | pshufb_lo(h8, idx)) ^ (n & 1 ? 0xFFFF : 0));
            int y256 = n + ((int16_t)(rr ^ 0x8000) > (int16_t)t);
            bad512 += sat8(y512) != want;
            bad256 += sat8(y256) != want;
        }
    }
    assert_int_equal(bad512, 0);
    assert_int_equal(bad256, 0);
}

static void test_u8_every_value(void **state) {
    (void)state;
    uint16_t thr[64];
    int8_t base[16], up[16], dip[16];
    for (int i = 0; i < 64; i++) thr[i] = (uint16_t)SG_U8_THR512(i);
    for (int h = 0; h < 16; h++) {
        base[h] = (int8_t)SG_U8_ROW_BASE(h);
        up[h] = (int8_t)SG_U8_ROW_UP(h);
        dip[h] = (int8_t)SG_U8_ROW_DIP(h);
    }
    for (int g = 0; g < 256; g++) {
        uint8_t want = gm_selugrad_u8((uint8_t)g, 0);
        uint16_t g8 = (uint16_t)(g << 8), k = SG_SMALL_K_SCALE;
        uint16_t n = mulhi_u(g8, k), rr = mullo(g8, k);
        unsigned i512 = ((unsigned)(n >> 3) ^ (uint16_t)(n << 5)) & 63;
        assert_int_equal(satu8(n + (rr >= thr[i512])), want);
        /* AVX2: the rows tables, by g / 16 and g mod 16; y = g + d, saturated (VPADDUSB) */
        int h = g >> 4, l = g & 15;
        assert_int_equal(satu8(g + base[h] + (l > up[h]) - (l == dip[h])), want);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_factor),
        cmocka_unit_test(test_s8_every_pair),
        cmocka_unit_test(test_u8_every_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
