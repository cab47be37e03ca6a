/*
 * selugrad_coldstart: how much slower the first calls of a new process are than its later ones.
 * Starts --procs fresh processes (this program again, by /proc/self/exe); each fills its arrays
 * (so page faults are not counted), then times its first --first calls of selugrad_backward one
 * by one and the next --later calls together, and reports both means. The parent prints one line
 * per process and the mean, median, smallest and largest ratio first / later.
 * Usage: selugrad_coldstart [--procs=N] [--first=N] [--later=N] [--size=N[K|M]] [--dtype=NAME]
 *                           [--threads=N]
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "selugrad/selugrad.h"
#include "sg_argv.h"

typedef struct cs_opts {
    unsigned procs, first, later, threads;
    size_t n;
    selugrad_dtype dtype;
} cs_opts;

static double cs_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cs_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* A whole number with an optional K or M suffix in [1, most]; -1 when not. */
static long long cs_number(const char *s, long long most) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || errno != 0 || s[0] < '0' || s[0] > '9') return -1;
    if (*end == 'K' || *end == 'k')
        v <<= 10, end++;
    else if (*end == 'M' || *end == 'm')
        v <<= 20, end++;
    return *end == '\0' && v >= 1 && v <= most ? v : -1;
}

/* The child: one line "first_us later_us" on stdout. */
static int cs_child(const cs_opts *o) {
    size_t es = selugrad_dtype_size(o->dtype), bytes = (o->n * es + 63) / 64 * 64;
    unsigned char *m = aligned_alloc(64, 3 * bytes);
    if (m == NULL) return 1;
    for (size_t i = 0; i < 3 * bytes; i++) m[i] = (unsigned char)(i * 7 % 61 + 1);
    if (o->threads && selugrad_set_num_threads((int)o->threads) != SELUGRAD_OK) return 1;
    const void *g = m, *ov = m + bytes;
    void *y = m + 2 * bytes;
    double first = 0.0;
    for (unsigned i = 0; i < o->first; i++) {
        double t0 = cs_now();
        if (selugrad_backward(o->dtype, o->n, g, ov, y) != SELUGRAD_OK) return 1;
        first += cs_now() - t0;
    }
    double t0 = cs_now();
    for (unsigned i = 0; i < o->later; i++)
        if (selugrad_backward(o->dtype, o->n, g, ov, y) != SELUGRAD_OK) return 1;
    double later = cs_now() - t0;
    printf("%.3f %.3f\n", first / o->first * 1e6, later / o->later * 1e6);
    free(m);
    return 0;
}

static void cs_usage(FILE *f, const char *prog) {
    fprintf(f,
            "usage: %s [--procs=N] [--first=N] [--later=N] [--size=N[K|M]] [--dtype=NAME] "
            "[--threads=N]\n"
            "Times the first --first calls (default 400) of selugrad_backward in each of --procs\n"
            "(20) new processes against the next --later (20000), --size elements (64K) of\n"
            "--dtype (f32) on --threads threads (0: the default); prints first / later.\n",
            prog);
}

int main(int argc, char **argv) {
    cs_opts o = {20, 400, 20000, 0, (size_t)64 << 10, SELUGRAD_FLOAT};
    int child = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = strchr(a, '=');
        long long x = v ? cs_number(v + 1, 1LL << 30) : -1;
        if (strcmp(a, "--child") == 0)
            child = 1;
        else if (strncmp(a, "--procs=", 8) == 0 && x > 0 && x <= 1000)
            o.procs = (unsigned)x;
        else if (strncmp(a, "--first=", 8) == 0 && x > 0 && x <= 1000000)
            o.first = (unsigned)x;
        else if (strncmp(a, "--later=", 8) == 0 && x > 0 && x <= 100000000)
            o.later = (unsigned)x;
        else if (strncmp(a, "--size=", 7) == 0 && x > 0)
            o.n = (size_t)x;
        else if (strncmp(a, "--threads=", 10) == 0 && v && strcmp(v + 1, "0") == 0)
            o.threads = 0;
        else if (strncmp(a, "--threads=", 10) == 0 && x > 0 && x <= 1024)
            o.threads = (unsigned)x;
        else if (strncmp(a, "--dtype=", 8) == 0 && sg_argv_dtype(v + 1, &o.dtype) == 0)
            continue;
        else if (strcmp(a, "--help") == 0) {
            cs_usage(stdout, argv[0]);
            return 0;
        } else {
            fprintf(stderr, "%s: bad argument '%s'\n", argv[0], a);
            cs_usage(stderr, argv[0]);
            return 2;
        }
    }
    if (child) return cs_child(&o);
    char size[32], first[32], later[32], threads[32], dtype[48];
    snprintf(size, sizeof size, "--size=%zu", o.n);
    snprintf(first, sizeof first, "--first=%u", o.first);
    snprintf(later, sizeof later, "--later=%u", o.later);
    snprintf(threads, sizeof threads, "--threads=%u", o.threads);
    snprintf(dtype, sizeof dtype, "--dtype=%s", selugrad_dtype_name(o.dtype));
    printf("# selugrad %s coldstart: %u processes, each: %u calls timed one by one, then %u; "
           "selugrad_backward %s n=%zu threads=%s\n",
           selugrad_version(), o.procs, o.first, o.later, selugrad_dtype_name(o.dtype), o.n,
           o.threads ? threads + 10 : "default");
    printf("proc first_us later_us ratio\n");
    double *ratio = malloc(o.procs * sizeof *ratio);
    if (ratio == NULL) return 1;
    double sum = 0.0;
    for (unsigned p = 0; p < o.procs; p++) {
        int fd[2];
        if (pipe2(fd, O_CLOEXEC) != 0) return 1;
        pid_t pid = fork();
        if (pid < 0) return 1;
        if (pid == 0) {
            dup2(fd[1], 1);
            char *args[] = {argv[0], "--child", size, first, later, threads, dtype, NULL};
            execv("/proc/self/exe", args);
            _exit(127);
        }
        close(fd[1]);
        char buf[128] = "";
        ssize_t got = read(fd[0], buf, sizeof buf - 1);
        close(fd[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        double f = 0.0, l = 0.0;
        if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
            sscanf(buf, "%lf %lf", &f, &l) != 2 || l <= 0.0) {
            fprintf(stderr, "%s: process %u failed\n", argv[0], p);
            free(ratio);
            return 1;
        }
        ratio[p] = f / l;
        sum += ratio[p];
        printf("%u %.3f %.3f %.3f\n", p, f, l, ratio[p]);
    }
    qsort(ratio, o.procs, sizeof *ratio, cs_cmp);
    printf("# first / later: mean %.3f, median %.3f, min %.3f, max %.3f\n", sum / o.procs,
           ratio[o.procs / 2], ratio[0], ratio[o.procs - 1]);
    free(ratio);
    return 0;
}
