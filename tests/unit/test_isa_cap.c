/*
 * The ISA cap of the public API: its default from SELUGRAD_MAX_ISA (this program is registered
 * again with the variable set, tests/cmake/isa_caps.cmake), selugrad_set_max_isa and
 * selugrad_get_max_isa (every value, bad values refused with the cap unchanged), the kernel
 * dispatch picks under each cap (selugrad_kernel_name, selugrad_forward_kernel_name and the
 * chosen flag of selugrad_kernel_get, against a choice made here from the kernel list and the
 * rule of docs/dispatch.md), the list of kernels, and calls that run while another thread keeps
 * changing the cap.
 */
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/dtype.h"
#include "kernels/kernel.h"
#include "selugrad/selugrad.h"

static const selugrad_isa all_caps[] = {SELUGRAD_ISA_SCALAR, SELUGRAD_ISA_AVX2,
                                        SELUGRAD_ISA_AVX512, SELUGRAD_ISA_AVX512FP16,
                                        SELUGRAD_ISA_NEON,   SELUGRAD_ISA_ALL};
enum { NCAPS = sizeof all_caps / sizeof all_caps[0] };

/* The cap the environment asks for, by the names docs/dispatch.md gives: none, an empty or an
   unknown name is no cap. */
static selugrad_isa env_cap(void) {
    static const char *const names[] = {"scalar", "avx2", "avx512", "avx512fp16", "neon", "all"};
    const char *env = getenv("SELUGRAD_MAX_ISA");
    for (int i = 0; env != NULL && i < NCAPS; i++)
        if (strcmp(env, names[i]) == 0) return all_caps[i];
    return SELUGRAD_ISA_ALL;
}

/* Whether a kernel of level isa may run under cap: the scalar ones always, every one with no
   cap, NEON only under NEON, an x86 level under an x86 cap at or above it. */
static int allowed(selugrad_isa isa, selugrad_isa cap) {
    if (isa == SELUGRAD_ISA_SCALAR || cap == SELUGRAD_ISA_ALL) return 1;
    if (isa == SELUGRAD_ISA_NEON || cap == SELUGRAD_ISA_NEON) return isa == cap;
    return isa <= cap;
}

/* The name dispatch should pick for (forward, dt) under cap: the first kernel of the list that
   this CPU runs and the cap allows. */
static const char *expected_kernel(int forward, selugrad_dtype dt, selugrad_isa cap) {
    for (size_t i = 0; i < selugrad_kernel_count(); i++) {
        selugrad_kernel_info k;
        assert_int_equal(selugrad_kernel_get(i, &k), SELUGRAD_OK);
        if (k.forward == forward && k.dtype == dt && k.supported && allowed(k.isa, cap))
            return k.name;
    }
    return NULL;
}

/* First: before anything sets a cap, the cap is the environment's. */
static void test_default_from_env(void **state) {
    (void)state;
    const char *env = getenv("SELUGRAD_MAX_ISA");
    print_message("SELUGRAD_MAX_ISA=%s: cap %s\n", env ? env : "(unset)",
                  selugrad_isa_name(selugrad_get_max_isa()));
    assert_int_equal(selugrad_get_max_isa(), env_cap());
    for (int d = 0; d < SG_DTYPE_COUNT; d++)
        assert_string_equal(selugrad_kernel_name(sg_dtype_list[d]),
                            expected_kernel(0, sg_dtype_list[d], env_cap()));
}

static void test_set_get(void **state) {
    (void)state;
    for (int c = 0; c < NCAPS; c++) {
        assert_int_equal(selugrad_set_max_isa(all_caps[c]), SELUGRAD_OK);
        assert_int_equal(selugrad_get_max_isa(), all_caps[c]);
    }
    static const int bad[] = {-1, 5, 6, 127, 254, 256, INT_MAX, INT_MIN};
    assert_int_equal(selugrad_set_max_isa(SELUGRAD_ISA_AVX2), SELUGRAD_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(selugrad_set_max_isa((selugrad_isa)bad[i]), SELUGRAD_ERR_BAD_ARGUMENT);
        assert_non_null(strstr(selugrad_last_error(), "selugrad_set_max_isa"));
        assert_int_equal(selugrad_get_max_isa(), SELUGRAD_ISA_AVX2); /* unchanged */
        assert_null(selugrad_isa_name((selugrad_isa)bad[i]));
        assert_int_equal(selugrad_isa_supported((selugrad_isa)bad[i]), 0);
    }
    static const char *const names[] = {"scalar", "avx2", "avx512", "avx512fp16", "neon", "all"};
    for (int c = 0; c < NCAPS; c++) assert_string_equal(selugrad_isa_name(all_caps[c]), names[c]);
    assert_int_equal(selugrad_isa_supported(SELUGRAD_ISA_SCALAR), 1);
    assert_int_equal(selugrad_isa_supported(SELUGRAD_ISA_ALL), 0);
#if defined(__x86_64__)
    assert_int_equal(selugrad_isa_supported(SELUGRAD_ISA_NEON), 0);
#elif defined(__aarch64__)
    assert_int_equal(selugrad_isa_supported(SELUGRAD_ISA_NEON), 1);
    assert_int_equal(selugrad_isa_supported(SELUGRAD_ISA_AVX2), 0);
#endif
    assert_int_equal(selugrad_set_max_isa(SELUGRAD_ISA_ALL), SELUGRAD_OK);
}

/* Under each cap, both operators' kernels per dtype, and the chosen flags: exactly the expected
   kernel of each (operator, dtype) is flagged. */
static void test_choice_per_cap(void **state) {
    (void)state;
    for (int c = 0; c < NCAPS; c++) {
        selugrad_isa cap = all_caps[c];
        assert_int_equal(selugrad_set_max_isa(cap), SELUGRAD_OK);
        for (int d = 0; d < SG_DTYPE_COUNT; d++) {
            selugrad_dtype dt = sg_dtype_list[d];
            const char *want = expected_kernel(0, dt, cap), *fwant = expected_kernel(1, dt, cap);
            assert_non_null(want); /* every dtype has a scalar SeluGrad kernel */
            assert_string_equal(selugrad_kernel_name(dt), want);
            if (fwant == NULL)
                assert_null(selugrad_forward_kernel_name(dt)); /* UINT8 has no forward */
            else
                assert_string_equal(selugrad_forward_kernel_name(dt), fwant);
            if (cap == SELUGRAD_ISA_SCALAR) assert_non_null(strstr(want, "__scalar"));
        }
        for (size_t i = 0; i < selugrad_kernel_count(); i++) {
            selugrad_kernel_info k;
            assert_int_equal(selugrad_kernel_get(i, &k), SELUGRAD_OK);
            const char *want = expected_kernel(k.forward, k.dtype, cap);
            assert_int_equal(k.chosen, want != NULL && strcmp(want, k.name) == 0);
        }
        print_message("cap %-10s f32 %s, f16 %s\n", selugrad_isa_name(cap),
                      selugrad_kernel_name(SELUGRAD_FLOAT), selugrad_kernel_name(SELUGRAD_FLOAT16));
    }
    assert_int_equal(selugrad_set_max_isa(SELUGRAD_ISA_ALL), SELUGRAD_OK);
}

/* The public list is the library's two lists, in order, with what this CPU runs. */
static void test_kernel_list(void **state) {
    (void)state;
    assert_int_equal(selugrad_kernel_count(), sg_kernel_count + sg_selu_kernel_count);
    for (size_t i = 0; i < selugrad_kernel_count(); i++) {
        const sg_kernel *k =
            i < sg_kernel_count ? &sg_kernels[i] : &sg_selu_kernels[i - sg_kernel_count];
        selugrad_kernel_info info;
        memset(&info, 0xA5, sizeof info);
        assert_int_equal(selugrad_kernel_get(i, &info), SELUGRAD_OK);
        assert_string_equal(info.name, k->name);
        assert_int_equal(info.forward, i >= sg_kernel_count);
        assert_non_null(strstr(info.name, info.forward ? "_selu__" : "_selugrad__"));
        assert_int_equal(info.dtype, k->dtype);
        assert_int_equal(info.isa, k->isa);
        assert_int_equal(info.supported, selugrad_isa_supported(info.isa));
        /* the name starts with the dtype's and ends with the level's */
        const char *dn = selugrad_dtype_name(info.dtype), *in = selugrad_isa_name(info.isa);
        assert_memory_equal(info.name, dn, strlen(dn));
        assert_string_equal(info.name + strlen(info.name) - strlen(in), in);
    }
    selugrad_kernel_info info;
    assert_int_equal(selugrad_kernel_get(selugrad_kernel_count(), &info),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    assert_int_equal(selugrad_kernel_get((size_t)-1, &info), SELUGRAD_ERR_BAD_ARGUMENT);
    assert_int_equal(selugrad_kernel_get(0, NULL), SELUGRAD_ERR_NULL_POINTER);
}

/* Calls on several threads while one thread keeps changing the cap: every result is the scalar
   kernel's, whichever kernel each call took. */
enum { N = 40000, CALLERS = 3, ROUNDS = 60 };
static float g_in[N], o_in[N], want_out[N];
static _Atomic int stop_flipping;

static void *flipper(void *arg) {
    (void)arg;
    for (unsigned i = 0; !stop_flipping; i++)
        if (selugrad_set_max_isa(all_caps[i % NCAPS]) != SELUGRAD_OK) return (void *)1;
    return NULL;
}

static void *caller(void *arg) {
    (void)arg;
    float *y = malloc(N * sizeof *y);
    if (y == NULL) return (void *)1;
    size_t bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        if (selugrad_backward(SELUGRAD_FLOAT, N, g_in, o_in, y) != SELUGRAD_OK ||
            memcmp(y, want_out, sizeof want_out) != 0)
            bad++;
    }
    free(y);
    return bad ? (void *)1 : NULL;
}

static void test_cap_changes_while_running(void **state) {
    (void)state;
    uint32_t s = 12345;
    for (size_t i = 0; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        uint32_t gb = 0x3F000000u | (s >> 9), ob = (s & 1u ? 0xBF000000u : 0x3F000000u) | (s >> 9);
        memcpy(&g_in[i], &gb, 4);
        memcpy(&o_in[i], &ob, 4);
    }
    assert_int_equal(selugrad_set_max_isa(SELUGRAD_ISA_SCALAR), SELUGRAD_OK);
    assert_int_equal(selugrad_backward(SELUGRAD_FLOAT, N, g_in, o_in, want_out), SELUGRAD_OK);
    pthread_t f, c[CALLERS];
    stop_flipping = 0;
    assert_int_equal(pthread_create(&f, NULL, flipper, NULL), 0);
    for (int i = 0; i < CALLERS; i++)
        assert_int_equal(pthread_create(&c[i], NULL, caller, NULL), 0);
    void *rc;
    int failed = 0;
    for (int i = 0; i < CALLERS; i++) {
        assert_int_equal(pthread_join(c[i], &rc), 0);
        failed += rc != NULL;
    }
    stop_flipping = 1;
    assert_int_equal(pthread_join(f, &rc), 0);
    assert_null(rc);
    assert_int_equal(failed, 0);
    assert_int_equal(selugrad_set_max_isa(SELUGRAD_ISA_ALL), SELUGRAD_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_from_env), /* first: nothing has set a cap yet */
        cmocka_unit_test(test_set_get),          cmocka_unit_test(test_choice_per_cap),
        cmocka_unit_test(test_kernel_list),      cmocka_unit_test(test_cap_changes_while_running),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
