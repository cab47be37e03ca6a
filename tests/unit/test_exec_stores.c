/*
 * The store policy: sg_stream_bytes from given cache sizes (a pure function), the detected
 * caches against sysfs where Linux has them, and plans that put every task on the side of the
 * kernels' streaming size that the policy chose for the call.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/cache.h"
#include "core/dispatch.h"
#include "core/exec.h"
#include "isa/cpu.h"
#if defined(__x86_64__)
#include "kernels/nt_bytes.h"
#endif

static void test_policy_from_sizes(void **state) {
    (void)state;
    /* one and a half times the L2 of a core, per thread */
    const sg_caches zen5 = {48u << 10, 1u << 20, 32u << 20, 2, 16, "given"};
    assert_int_equal(sg_stream_bytes(&zen5, 1), (size_t)3 << 19);
    assert_int_equal(sg_stream_bytes(&zen5, 2), (size_t)3 << 20);
    const sg_caches spr = {48u << 10, 2u << 20, 105u << 20, 2, 112, "given"};
    assert_int_equal(sg_stream_bytes(&spr, 2), (size_t)6 << 20);
    const sg_caches zen3 = {32u << 10, 512u << 10, 32u << 20, 2, 16, "given"};
    assert_int_equal(sg_stream_bytes(&zen3, 4), (size_t)3 << 20);
    /* 0 threads counts as 1; an unknown L2 is the fallback's */
    assert_int_equal(sg_stream_bytes(&zen5, 0), sg_stream_bytes(&zen5, 1));
    const sg_caches none = {0, 0, 0, 0, 0, "given"};
    assert_int_equal(sg_stream_bytes(&none, 1), SG_CACHE_FALLBACK.l2 * 3 / 2);
    assert_int_equal(SG_CACHE_FALLBACK.l2, (size_t)1 << 20);
}

/* A sysfs size such as "1024K" in bytes; 0 when absent. */
static size_t sysfs_size(int index) {
    char path[96], buf[32] = "";
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
    FILE *f = fopen(path, "r");
    if (f == NULL) return 0;
    if (fgets(buf, sizeof buf, f) == NULL) buf[0] = '\0';
    fclose(f);
    char *unit;
    size_t v = (size_t)strtoull(buf, &unit, 10);
    return *unit == 'K' ? v << 10 : *unit == 'M' ? v << 20 : v;
}

static int sysfs_level(int index) {
    char path[96], buf[8] = "";
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", index);
    FILE *f = fopen(path, "r");
    if (f == NULL) return 0;
    if (fgets(buf, sizeof buf, f) == NULL) buf[0] = '\0';
    fclose(f);
    return atoi(buf);
}

static void test_detected(void **state) {
    (void)state;
    const sg_caches *c = sg_caches_get();
    assert_non_null(c->source);
    assert_true(c->l2 >= (64u << 10) && c->l2 <= (64u << 20));
    assert_true(c->l1d == 0 || (c->l1d >= (8u << 10) && c->l1d <= c->l2));
    print_message("caches from %s: L1d %zu, L2 %zu, L3 %zu\n", c->source, c->l1d, c->l2, c->l3);
    /* the kernel's own view, where it has one, is an independent reading */
    size_t l2 = 0;
    for (int i = 0; i < 8; i++)
        if (sysfs_level(i) == 2) l2 = sysfs_size(i);
    if (l2 && strcmp(c->source, "fallback") != 0) assert_int_equal(c->l2, l2);
    const sg_cpu_id *id = sg_cpu_id_get();
#if defined(__x86_64__)
    assert_true(strlen(id->vendor) == 12);
    assert_true(id->family >= 6);
#endif
    (void)id;
}

/* Each plan puts every task on the policy's side of the kernels' streaming size. */
static void test_plans_follow_policy(void **state) {
    (void)state;
#if defined(__x86_64__)
    const sg_kernel *k = sg_kernel_select(SELUGRAD_FLOAT, SG_ISA_SCALAR);
    const size_t sizes[] = {1000, 100000, 1u << 20, 3u << 20, 40u << 20};
    const size_t at[] = {1, (size_t)1 << 20, (size_t)12 << 20, SIZE_MAX, 0};
    for (size_t a = 0; a < sizeof at / sizeof at[0]; a++) {
        sg_exec_set_stream_bytes(at[a]);
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (unsigned nth = 1; nth <= 4; nth++) {
                size_t n = sizes[i], traffic = 12 * n;
                sg_plan p;
                sg_plan_make(&p, k, n, nth);
                size_t want = at[a] ? at[a] : sg_stream_bytes(sg_caches_get(), p.nth);
                assert_int_equal(p.stream, traffic >= want);
                assert_true(p.block * p.tasks >= n && p.block * (p.tasks - 1) < n);
                if (p.stream)
                    assert_true(12 * p.block >= SG_NT_MIN_BYTES || p.tasks == 1);
                else
                    assert_true(12 * p.block < SG_NT_MIN_BYTES || p.tasks == 1);
            }
    }
    sg_exec_set_stream_bytes(0);
#else
    skip(); /* no kernel streams */
#endif
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy_from_sizes),
        cmocka_unit_test(test_detected),
        cmocka_unit_test(test_plans_follow_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
