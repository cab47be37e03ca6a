/*
 * sg_exp_all: the SELU forward's fp32 exponential (kernels/ref/selu_exp.h) against float64 exp
 * rounded to fp32 (glibc's exp is correctly rounded in double to well within the 2^-29 relative
 * that fp32 rounding needs, except on cases nearer a tie than that, which the program counts),
 * on every fp32 x <= 0 (-0, every negative finite value, -inf): about 2^31 inputs.
 * Not part of the CTest suite at full size (a minute or so); the suite runs a sample.
 *
 *     sg_exp_all [--step=N]     every N-th input (default 1: all of them)
 *
 * Prints the inputs checked, how many results differ from the correctly rounded ones, and the
 * largest error in ulps (of the correctly rounded result's binade; subnormal ulps below 2^-126)
 * with its input. Exit status: 0 when the largest error is at most 1 ulp, 1 otherwise, 2 bad
 * arguments.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_arg.h"
#include "kernels/ref/selu_exp.h"

/* Error of got against the exact value v in units of the last place of the fp32 value nearest v
   (ulp 2^-149 below 2^-126). */
static double ulp_error(float got, double v) {
    int e;
    frexp(v, &e); /* v = m * 2^e, m in [0.5, 1) */
    int ulp_exp = e - 24 < -149 ? -149 : e - 24;
    return fabs((double)got - v) / ldexp(1.0, ulp_exp);
}

int main(int argc, char **argv) {
    uint64_t step = 1;
    if (sg_count_arg(argc, argv, "step", UINT32_MAX, &step) != 0) return 2;
    uint64_t checked = 0, differ = 0;
    double worst = 0.0;
    uint32_t worst_bits = 0;
    /* 0x80000000 (-0) .. 0xFF800000 (-inf): every x <= 0 that is not a NaN */
    for (uint64_t b = 0x80000000u; b <= 0xFF800000u; b += step) {
        float x = sg_bits_f32((uint32_t)b);
        float got = sg_selu_expf(x);
        double v = exp((double)x);
        float want = (float)v;
        checked++;
        if (sg_f32_bits(got) != sg_f32_bits(want)) differ++;
        double err = v == 0.0 ? (got == 0.0f ? 0.0 : INFINITY) : ulp_error(got, v);
        if (err > worst) worst = err, worst_bits = (uint32_t)b;
    }
    float wx = sg_bits_f32(worst_bits);
    printf("sg_exp_all: %llu inputs x <= 0 (step %llu), %llu differ from float64 exp rounded to "
           "fp32, max error %.4f ulp at x = %a (0x%08X: got %a, exact %a)\n",
           (unsigned long long)checked, (unsigned long long)step, (unsigned long long)differ, worst,
           wx, worst_bits, sg_selu_expf(wx), exp((double)wx));
    return worst <= 1.0 ? 0 : 1;
}
