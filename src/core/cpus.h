/*
 * The CPUs this process may use: its affinity mask, and the CPU bandwidth quota of its cgroup
 * (a container's --cpus, a Kubernetes CPU limit), which the mask does not show.
 */
#ifndef SELUGRAD_CORE_CPUS_H
#define SELUGRAD_CORE_CPUS_H

/* The CPUs of the calling thread's affinity mask (or the CPUs online where there is none), read
   once, at the first need, at least 1: the CPUs a spinning worker may find free (pool.c). */
unsigned sg_cpus_affinity(void);

/* This process's cgroup CPU limit as sg_cpus_available() read it (0: none). */
unsigned sg_cpus_quota(void);

/* The CPUs this process may keep busy: sg_cpus_affinity(), but no more than the CPU quota,
   rounded up, of the process's cgroup or one of its ancestors (sg_cgroup_cpu_limit of
   /proc/self/cgroup under /sys/fs/cgroup: a container's own cgroup, a host's systemd service
   with CPUQuota=; the root's alone where procfs cannot be read); read once, at least 1. The
   default thread count and the cap on the threads a call runs on (pool.h). Read once because a
   call cannot afford the system calls (the first read of /proc/self/cgroup and of the cgroup
   files costs about 70 us each on the Zen 5 VM, paid by the first call); the first call that
   needs it is usually the one that starts the pool's workers, which inherit the mask of the
   thread that starts them. */
unsigned sg_cpus_available(void);

/* The CPU limit of a cgroup CPU bandwidth quota, ceil(quota / period), or 0 where there is none
   (no quota, no cgroup file system, nothing readable). root: where the cgroup file system is
   mounted ("/sys/fs/cgroup"); self_cgroup: the text of /proc/self/cgroup. A v1 line whose
   controllers include cpu ("4:cpu,cpuacct:/path") is read first: cpu.cfs_quota_us and
   cpu.cfs_period_us under root/cpu (else root/cpu,cpuacct); else the v2 line ("0::/path"):
   cpu.max ("max 100000", "200000 100000") under root. The limit is the lowest of the cgroup's
   and its ancestors' (each bounds its children). Where the path does not exist under root (a
   container that sees its own cgroup at root, with no cgroup namespace), root's own files are
   read. A pure function of the files: tests give it a directory of their own. */
unsigned sg_cgroup_cpu_limit(const char *root, const char *self_cgroup);

#endif /* SELUGRAD_CORE_CPUS_H */
