#define _GNU_SOURCE /* sched_getaffinity */
#include "cpus.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysfile.h"

/* A whole number at *s (digits only), or -1 ("max", "-1", nothing). */
static long long sg_parse_count(const char *s) {
    if (*s < '0' || *s > '9') return -1;
    char *end;
    long long v = strtoll(s, &end, 10);
    return v >= 0 ? v : -1;
}

/* The limit one cgroup directory sets, ceil(quota / period), or 0 for none. */
static unsigned sg_dir_limit(const char *dir, bool v1) {
    char path[4096], buf[128];
    long long quota = -1, period = -1;
    if (v1) {
        if (snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir) >= (int)sizeof path ||
            !sg_sysfile_read(path, buf, sizeof buf))
            return 0;
        quota = sg_parse_count(buf);
        if (quota <= 0) return 0; /* -1: none; the period is not read */
        if (snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir) >= (int)sizeof path ||
            !sg_sysfile_read(path, buf, sizeof buf))
            return 0;
        period = sg_parse_count(buf);
    } else {
        if (snprintf(path, sizeof path, "%s/cpu.max", dir) >= (int)sizeof path ||
            !sg_sysfile_read(path, buf, sizeof buf))
            return 0;
        quota = sg_parse_count(buf);
        const char *sp = strchr(buf, ' ');
        if (sp != NULL) period = sg_parse_count(sp + 1);
    }
    if (quota <= 0 || period <= 0) return 0;
    /* rounded up without quota + period - 1, which overflows for a quota near LLONG_MAX (strtoll
       saturates an out-of-range number there) */
    long long n = quota / period + (quota % period != 0);
    return n > 65535 ? 65535u : (unsigned)n;
}

/* The lowest limit of base/path and its ancestors up to base (0: none); base's own files when
   base/path does not exist. */
static unsigned sg_tree_limit(const char *base, const char *path, bool v1) {
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s%s", base, path) >= (int)sizeof dir) return 0;
    size_t len = strlen(dir);
    while (len > strlen(base) && dir[len - 1] == '/') dir[--len] = '\0';
    /* the root itself: no directory to look for (each system call costs microseconds on a VM) */
    if (len == strlen(base) || access(dir, F_OK) != 0) return sg_dir_limit(base, v1);
    unsigned best = 0;
    for (;;) {
        unsigned n = sg_dir_limit(dir, v1);
        if (n != 0 && (best == 0 || n < best)) best = n;
        if (len <= strlen(base)) break;
        char *slash = strrchr(dir, '/');
        if (slash == NULL || (size_t)(slash - dir) < strlen(base)) break;
        *slash = '\0';
        len = strlen(dir);
    }
    return best;
}

/* Whether the comma-separated list [s, e) names the controller "cpu". */
static bool sg_has_cpu(const char *s, const char *e) {
    while (s < e) {
        const char *c = memchr(s, ',', (size_t)(e - s));
        if (c == NULL) c = e;
        if (c - s == 3 && memcmp(s, "cpu", 3) == 0) return true;
        s = c + 1;
    }
    return false;
}

unsigned sg_cgroup_cpu_limit(const char *root, const char *self_cgroup) {
    char v1path[1024] = "", v2path[1024] = "";
    bool v1 = false, v2 = false;
    for (const char *line = self_cgroup; line != NULL && *line != '\0';) {
        const char *nl = strchr(line, '\n');
        const char *end = nl ? nl : line + strlen(line);
        const char *c1 = memchr(line, ':', (size_t)(end - line));
        const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
        if (c2 != NULL && (size_t)(end - c2 - 1) < sizeof v1path) {
            size_t plen = (size_t)(end - c2 - 1);
            if (sg_has_cpu(c1 + 1, c2)) {
                memcpy(v1path, c2 + 1, plen);
                v1path[plen] = '\0';
                v1 = true;
            } else if (c1 - line == 1 && line[0] == '0' && c2 == c1 + 1) {
                memcpy(v2path, c2 + 1, plen);
                v2path[plen] = '\0';
                v2 = true;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    char base[4096];
    if (v1) {
        const char *mounts[2] = {"cpu", "cpu,cpuacct"};
        for (int m = 0; m < 2; m++) {
            if (snprintf(base, sizeof base, "%s/%s", root, mounts[m]) >= (int)sizeof base) return 0;
            if (access(base, F_OK) == 0) return sg_tree_limit(base, v1path, true);
        }
        return 0;
    }
    if (v2) return sg_tree_limit(root, v2path, false);
    return 0;
}

static unsigned sg_affinity_n, sg_quota_n, sg_available_n;
static pthread_once_t sg_cpus_once = PTHREAD_ONCE_INIT;

static void sg_cpus_init(void) {
    unsigned n = 0;
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int c = CPU_COUNT(&set);
        if (c > 0) n = (unsigned)c;
    }
#endif
    if (n == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? (unsigned)c : 1u;
    }
    sg_affinity_n = n;
#if defined(__linux__)
    /* The process's own cgroup (/proc/self/cgroup) and its ancestors: a container's at the
       mount's root (cgroup v2 with a cgroup namespace; v1 bind-mounts it there), a host's
       service nested below (systemd's CPUQuota=). Where procfs cannot be read, the root's. */
    char self[8192];
    if (sg_sysfile_read("/proc/self/cgroup", self, sizeof self)) {
        sg_quota_n = sg_cgroup_cpu_limit("/sys/fs/cgroup", self);
    } else {
        sg_quota_n = sg_cgroup_cpu_limit("/sys/fs/cgroup", "0::/\n");
        if (sg_quota_n == 0) sg_quota_n = sg_cgroup_cpu_limit("/sys/fs/cgroup", "1:cpu:/\n");
    }
    if (sg_quota_n != 0 && sg_quota_n < n) n = sg_quota_n;
#endif
    sg_available_n = n;
}

unsigned sg_cpus_affinity(void) {
    pthread_once(&sg_cpus_once, sg_cpus_init);
    return sg_affinity_n;
}

unsigned sg_cpus_quota(void) {
    pthread_once(&sg_cpus_once, sg_cpus_init);
    return sg_quota_n;
}

unsigned sg_cpus_available(void) {
    pthread_once(&sg_cpus_once, sg_cpus_init);
    return sg_available_n;
}
