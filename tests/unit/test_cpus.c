/*
 * The CPU limit of a cgroup CPU bandwidth quota (sg_cgroup_cpu_limit) from cgroup trees made
 * here: cgroup v2 (cpu.max) and v1 (cpu.cfs_quota_us, cpu.cfs_period_us), no quota, nested
 * quotas (the lowest bounds), a path missing from the tree (a container's own cgroup seen at the
 * root), and /proc/self/cgroup texts of both kinds. Expected values: ceil(quota / period), as
 * docs/dispatch.md ("Threads") writes down. And this process: sg_cpus_available() is the
 * affinity mask's count, or the quota of its own cgroup or an ancestor's where that is lower.
 */
#define _GNU_SOURCE /* mkdtemp, sched_getaffinity */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/cpus.h"

static char root[256];

/* Writes text to root/rel, making the directories on the way. */
static void put(const char *rel, const char *text) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        mkdir(path, 0755);
        *s = '/';
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void make_root(void) {
    strcpy(root, "/tmp/sg_cpus_XXXXXX");
    assert_non_null(mkdtemp(root));
}

static void remove_root(void) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

static void test_v2(void **state) {
    (void)state;
    make_root();
    const char *self = "0::/kubepods/pod1/c1\n";
    /* no cpu.max anywhere on the way: no limit */
    put("kubepods/pod1/c1/cgroup.procs", "");
    assert_int_equal(sg_cgroup_cpu_limit(root, self), 0);
    put("kubepods/pod1/c1/cpu.max", "max 100000\n");
    assert_int_equal(sg_cgroup_cpu_limit(root, self), 0);
    put("kubepods/pod1/c1/cpu.max", "200000 100000\n"); /* 2 CPUs */
    assert_int_equal(sg_cgroup_cpu_limit(root, self), 2);
    put("kubepods/pod1/c1/cpu.max", "150000 100000\n"); /* 1.5: rounded up */
    assert_int_equal(sg_cgroup_cpu_limit(root, self), 2);
    put("kubepods/pod1/c1/cpu.max", "50000 100000\n"); /* 0.5 */
    assert_int_equal(sg_cgroup_cpu_limit(root, self), 1);
    put("kubepods/pod1/c1/cpu.max", "800000 100000\n");
    put("kubepods/pod1/cpu.max", "300000 100000\n"); /* the parent bounds it: 3 */
    assert_int_equal(sg_cgroup_cpu_limit(root, self), 3);
    put("kubepods/cpu.max", "max 100000\n");
    assert_int_equal(sg_cgroup_cpu_limit(root, self), 3);
    put("kubepods/pod1/c1/cpu.max", "100000 50000\n"); /* 2 over a shorter period */
    assert_int_equal(sg_cgroup_cpu_limit(root, self), 2);
    /* a path not in this tree: the root's own file (a cgroup namespace's view) */
    put("cpu.max", "400000 100000\n");
    assert_int_equal(sg_cgroup_cpu_limit(root, "0::/docker/abc\n"), 4);
    assert_int_equal(sg_cgroup_cpu_limit(root, "0::/\n"), 4);
    /* unreadable values: no limit */
    put("cpu.max", "garbage\n");
    assert_int_equal(sg_cgroup_cpu_limit(root, "0::/\n"), 0);
    put("cpu.max", "0 100000\n");
    assert_int_equal(sg_cgroup_cpu_limit(root, "0::/\n"), 0);
    /* huge numbers: at most 65535 CPUs, with no overflow on the way (LLONG_MAX is what strtoll
       gives for a number beyond it; ceil(LLONG_MAX / 1) and ceil((2^63 - 1) / 2^62) = 2) */
    put("cpu.max", "9223372036854775807 1\n");
    assert_int_equal(sg_cgroup_cpu_limit(root, "0::/\n"), 65535);
    put("cpu.max", "99999999999999999999999 100000\n");
    assert_int_equal(sg_cgroup_cpu_limit(root, "0::/\n"), 65535);
    put("cpu.max", "9223372036854775807 4611686018427387904\n");
    assert_int_equal(sg_cgroup_cpu_limit(root, "0::/\n"), 2);
    remove_root();
}

static void test_v1(void **state) {
    (void)state;
    make_root();
    const char *self = "12:pids:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/x\n0::/\n";
    put("cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "-1\n");
    put("cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
    assert_int_equal(sg_cgroup_cpu_limit(root, self), 0);
    put("cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "250000\n"); /* 2.5: 3 */
    assert_int_equal(sg_cgroup_cpu_limit(root, self), 3);
    put("cpu,cpuacct/docker/cpu.cfs_quota_us", "100000\n");
    put("cpu,cpuacct/docker/cpu.cfs_period_us", "100000\n");
    assert_int_equal(sg_cgroup_cpu_limit(root, self), 1);
    /* the v1 line wins over the v2 one of a hybrid system; a mount named cpu comes first */
    put("cpu.max", "800000 100000\n");
    put("cpu/docker/abc/cpu.cfs_quota_us", "600000\n");
    put("cpu/docker/abc/cpu.cfs_period_us", "100000\n");
    assert_int_equal(sg_cgroup_cpu_limit(root, self), 6);
    /* a path not in the tree: the mount's own files */
    put("cpu/cpu.cfs_quota_us", "200000\n");
    put("cpu/cpu.cfs_period_us", "100000\n");
    assert_int_equal(sg_cgroup_cpu_limit(root, "3:cpu:/elsewhere\n"), 2);
    /* controllers named like cpu but not cpu: no v1 cpu line, so the v2 line */
    assert_int_equal(sg_cgroup_cpu_limit(root, "5:cpuset:/\n6:cpuacct:/\n0::/\n"), 8);
    /* nothing to read */
    assert_int_equal(sg_cgroup_cpu_limit(root, ""), 0);
    assert_int_equal(sg_cgroup_cpu_limit(root, "garbage"), 0);
    assert_int_equal(sg_cgroup_cpu_limit("/nonexistent/sg", self), 0);
    remove_root();
}

/* This process: the affinity mask's count, counted here, or a lower quota of its cgroup
   (/proc/self/cgroup) or an ancestor's. */
static void test_this_process(void **state) {
    (void)state;
    cpu_set_t set;
    assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
    unsigned mask = (unsigned)CPU_COUNT(&set);
    assert_int_equal(sg_cpus_affinity(), mask);
    /* the quota of this process's cgroup and its ancestors (the trees above test the walk) */
    char self[8192] = "";
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (f != NULL) {
        size_t got = fread(self, 1, sizeof self - 1, f);
        self[got] = '\0';
        fclose(f);
    }
    unsigned q = sg_cgroup_cpu_limit("/sys/fs/cgroup", self);
    if (f == NULL) {
        q = sg_cgroup_cpu_limit("/sys/fs/cgroup", "0::/\n");
        if (q == 0) q = sg_cgroup_cpu_limit("/sys/fs/cgroup", "1:cpu:/\n");
    }
    unsigned want = q != 0 && q < mask ? q : mask;
    assert_int_equal(sg_cpus_available(), want);
    assert_int_equal(sg_cpus_quota(), q);
    print_message("cpus: affinity %u, cgroup quota %u (0: none), available %u\n", mask, q, want);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v2),
        cmocka_unit_test(test_v1),
        cmocka_unit_test(test_this_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
