/*
 * The store policy: sg_stream_bytes from given cache sizes (a pure function), the detected
 * caches against sysfs where Linux has them, and plans that put every task on the side of the
 * kernels' streaming size that the policy chose for the call.
 */
#define _GNU_SOURCE /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* ---- detection from given sources (sg_caches_detect) ---- */

/* A CPUID of the test's own: the entries of fake_table, zeros for any other leaf. sub < 0
   answers every subleaf. */
typedef struct fake_leaf {
    unsigned leaf;
    int sub;
    unsigned r[4];
} fake_leaf;
static const fake_leaf *fake_table;
static size_t fake_count;

static void fake_cpuid(unsigned leaf, unsigned sub, unsigned r[4]) {
    r[0] = r[1] = r[2] = r[3] = 0;
    for (size_t i = 0; i < fake_count; i++)
        if (fake_table[i].leaf == leaf && (fake_table[i].sub < 0 || fake_table[i].sub == (int)sub))
            memcpy(r, fake_table[i].r, sizeof fake_table[i].r);
}

/* EAX/EBX/ECX of one cache in the layout of leaf 4 and 0x8000001D, from its parts as the
   vendors' manuals define them: type (1 data, 2 instruction, 3 unified), level, logical CPUs
   sharing it, ways, line bytes, sets (partitions 1). */
#define CACHE_ABC(type, level, sharing, ways, line, sets)                                          \
    { (type) | (level) << 5 | ((sharing)-1u) << 14, ((ways)-1u) << 22 | ((line)-1u), (sets)-1u, 0 }
/* the vendor string's EBX (EDX and ECX are not read) */
#define GENU 0x756e6547u
#define AUTH 0x68747541u

/* AMD Zen 5 as its VM answers 0x8000001D: L1d 48 KiB, L2 1 MiB (sharing field 2), L3 32 MiB
   (254) */
static const fake_leaf zen5_vm[] = {
    {0, -1, {0xd, AUTH, 0, 0}},
    {0x80000000u, -1, {0x80000021u, 0, 0, 0}},
    {0x8000001Du, 0, CACHE_ABC(1, 1, 2, 12, 64, 64)},
    {0x8000001Du, 1, CACHE_ABC(2, 1, 2, 8, 64, 64)},
    {0x8000001Du, 2, CACHE_ABC(3, 2, 2, 16, 64, 1024)},
    {0x8000001Du, 3, CACHE_ABC(3, 3, 254, 16, 64, 32768)},
};

static sg_caches detect_with(const fake_leaf *t, size_t n, const char *dir) {
    fake_table = t;
    fake_count = n;
    return sg_caches_detect(fake_cpuid, dir);
}

static void assert_caches(sg_caches c, size_t l1d, size_t l2, size_t l3, unsigned l2t, unsigned l3t,
                          const char *source) {
    assert_int_equal(c.l1d, l1d);
    assert_int_equal(c.l2, l2);
    assert_int_equal(c.l3, l3);
    assert_int_equal(c.l2_threads, l2t);
    assert_int_equal(c.l3_threads, l3t);
    assert_string_equal(c.source, source);
}

static void write_file(const char *dir, const char *name, const char *text) {
    char path[1024];
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_true(n > 0 && (size_t)n < sizeof path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* index<i> of a sysfs-style cache directory */
static void write_index(const char *dir, int i, const char *level, const char *type,
                        const char *size, const char *shared) {
    char sub[512];
    int n = snprintf(sub, sizeof sub, "%s/index%d", dir, i);
    assert_true(n > 0 && (size_t)n < sizeof sub);
    assert_int_equal(mkdir(sub, 0700), 0);
    write_file(sub, "level", level);
    write_file(sub, "type", type);
    write_file(sub, "size", size);
    write_file(sub, "shared_cpu_list", shared);
}

static void remove_tree(const char *dir) {
    char cmd[600];
    int n = snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_true(n > 0 && (size_t)n < sizeof cmd);
    assert_int_equal(system(cmd), 0);
}

static void test_detect_cpuid(void **state) {
    (void)state;
    const size_t K = 1024;
    /* Intel, leaf 4: L1d 48 KiB (12 ways x 64 B x 64 sets), L1i, L2 2 MiB (16 x 64 x 2048,
       sharing field 2), L3 105 MiB (15 x 64 x 114688, sharing field 112). The sharing fields
       are not counts (the most IDs that could share): without sysfs the sharing is unknown. */
    const fake_leaf intel[] = {
        {0, -1, {0x1f, GENU, 0, 0}},
        {4, 0, CACHE_ABC(1, 1, 2, 12, 64, 64)},
        {4, 1, CACHE_ABC(2, 1, 2, 8, 64, 64)},
        {4, 2, CACHE_ABC(3, 2, 2, 16, 64, 2048)},
        {4, 3, CACHE_ABC(3, 3, 112, 15, 64, 114688)},
    };
    assert_caches(detect_with(intel, 5, NULL), 48 * K, 2048 * K, 105 * K * K, 0, 0, "cpuid leaf 4");
    assert_caches(detect_with(zen5_vm, 6, NULL), 48 * K, 1024 * K, 32 * K * K, 0, 0,
                  "cpuid 0x8000001d");
    /* AMD where 0x8000001D answers nothing: 0x80000005 ECX[31:24] L1d KiB, 0x80000006
       ECX[31:16] L2 KiB and EDX[31:18] L3 in 512 KiB units; sharing unknown */
    const fake_leaf amd_old[] = {
        {0, -1, {0xd, AUTH, 0, 0}},
        {0x80000000u, -1, {0x8000001Fu, 0, 0, 0}},
        {0x80000005u, -1, {0, 0, 64u << 24, 0}},
        {0x80000006u, -1, {0, 0, 512u << 16, 64u << 18}},
    };
    assert_caches(detect_with(amd_old, 4, NULL), 64 * K, 512 * K, 32 * K * K, 0, 0,
                  "cpuid 0x80000006");
    /* Intel whose leaf 4 is empty (a hypervisor's), an AMD without the extended leaves, a
       vendor of neither: the fallback where no sysfs directory is given */
    const fake_leaf intel_empty[] = {{0, -1, {0x1f, GENU, 0, 0}}};
    const fake_leaf amd_short[] = {{0, -1, {0xd, AUTH, 0, 0}},
                                   {0x80000000u, -1, {0x80000004u, 0, 0, 0}}};
    const fake_leaf other[] = {{0, -1, {0x1f, 0x746e6543u /* "Cent" */, 0, 0}},
                               {4, 2, CACHE_ABC(3, 2, 2, 16, 64, 2048)}};
    assert_caches(detect_with(intel_empty, 1, NULL), 32 * K, 1024 * K, 0, 0, 0, "fallback");
    assert_caches(detect_with(amd_short, 2, NULL), 32 * K, 1024 * K, 0, 0, 0, "fallback");
    assert_caches(detect_with(other, 2, NULL), 32 * K, 1024 * K, 0, 0, 0, "fallback");
    /* the fallback's policy: 1.5 MiB of traffic per thread */
    sg_caches fb = detect_with(other, 2, NULL);
    assert_int_equal(sg_stream_bytes(&fb, 2), (size_t)3 << 20);
}

static void test_detect_sysfs(void **state) {
    (void)state;
    const size_t K = 1024;
    char dir[] = "/tmp/sg_test_cachesXXXXXX";
    assert_non_null(mkdtemp(dir));
    /* no index directories: the fallback */
    assert_caches(sg_caches_detect(NULL, dir), 32 * K, 1024 * K, 0, 0, 0, "fallback");
    /* an L1d only: no L2 named, the fallback */
    write_index(dir, 0, "1\n", "Data\n", "32K\n", "0\n");
    assert_caches(sg_caches_detect(NULL, dir), 32 * K, 1024 * K, 0, 0, 0, "fallback");
    /* L1d 64 KiB, L1i, L2 2 MiB shared by CPUs 0-1, L3 16 MiB (in M) shared by 0-3,8-11 */
    remove_tree(dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    write_index(dir, 0, "1\n", "Data\n", "64K\n", "0\n");
    write_index(dir, 1, "1\n", "Instruction\n", "32K\n", "0\n");
    write_index(dir, 2, "2\n", "Unified\n", "2048K\n", "0-1\n");
    write_index(dir, 3, "3\n", "Unified\n", "16M\n", "0-3,8-11\n");
    assert_caches(sg_caches_detect(NULL, dir), 64 * K, 2048 * K, 16 * K * K, 2, 8, "sysfs");
    /* CPUID of an unknown vendor gives way to sysfs */
    const fake_leaf other[] = {{0, -1, {0x1f, 0x746e6543u, 0, 0}}};
    assert_caches(detect_with(other, 1, dir), 64 * K, 2048 * K, 16 * K * K, 2, 8, "sysfs");
    /* CPUID that answers gives the sizes, sysfs the sharing (of the levels CPUID names) */
    const fake_leaf zen5[] = {
        {0, -1, {0xd, AUTH, 0, 0}},
        {0x80000000u, -1, {0x80000021u, 0, 0, 0}},
        {0x8000001Du, 0, CACHE_ABC(3, 2, 2, 16, 64, 1024)}, /* an L2 alone, as subleaf 0 */
    };
    assert_caches(detect_with(zen5, 3, dir), 0, 1024 * K, 0, 2, 0, "cpuid 0x8000001d");
    remove_tree(dir);
}

/* The Zen 5 VM as it is: CPUID's 0x8000001D says 254 logical processors may share the L3 (a
   hypervisor's cap), sysfs lists the two CPUs that do (L2 "0", L3 "0-1"). The sharing reported
   is sysfs' count; the store policy reads neither (1.5 x L2 per thread either way). */
static void test_sharing_from_sysfs(void **state) {
    (void)state;
    const size_t K = 1024;
    char dir[] = "/tmp/sg_test_sharingXXXXXX";
    assert_non_null(mkdtemp(dir));
    write_index(dir, 0, "1\n", "Data\n", "48K\n", "0\n");
    write_index(dir, 1, "1\n", "Instruction\n", "32K\n", "0\n");
    write_index(dir, 2, "2\n", "Unified\n", "1024K\n", "0\n");
    write_index(dir, 3, "3\n", "Unified\n", "32768K\n", "0-1\n");
    sg_caches vm = detect_with(zen5_vm, 6, dir);
    assert_caches(vm, 48 * K, 1024 * K, 32 * K * K, 1, 2, "cpuid 0x8000001d");
    /* a host where sysfs lists 16 CPUs on the L3 (one CCD, SMT): 16 */
    remove_tree(dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    write_index(dir, 0, "2\n", "Unified\n", "1024K\n", "0,64\n");
    write_index(dir, 1, "3\n", "Unified\n", "32768K\n", "0-7,64-71\n");
    sg_caches host = detect_with(zen5_vm, 6, dir);
    assert_caches(host, 48 * K, 1024 * K, 32 * K * K, 2, 16, "cpuid 0x8000001d");
    remove_tree(dir);
    /* the policy: 1.5 MiB of traffic per thread on both, whatever the sharing */
    for (unsigned th = 1; th <= 4; th++) {
        assert_int_equal(sg_stream_bytes(&vm, th), (size_t)th * 1536 * K);
        assert_int_equal(sg_stream_bytes(&host, th), (size_t)th * 1536 * K);
    }
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
        cmocka_unit_test(test_policy_from_sizes),  cmocka_unit_test(test_detected),
        cmocka_unit_test(test_detect_cpuid),       cmocka_unit_test(test_detect_sysfs),
        cmocka_unit_test(test_sharing_from_sysfs), cmocka_unit_test(test_plans_follow_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
