/* benchdnn-style options: --name=value, comma lists run as a product. */
#define _POSIX_C_SOURCE 200809L /* access */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_internal.h"
#include "common/dtype.h"
#include "sg_argv.h"

void sgb_usage(FILE *f, const char *prog) {
    fprintf(f,
            "usage: %s [options]\n"
            "Times selugrad_backward (and selugrad_forward) per dtype x size x threads (x isa)\n"
            "and compares it with a STREAM bound and a hand-written loop on the same threads.\n"
            "  --op=LIST       selu_grad (selugrad_backward, bound: the triad, 2 reads + 1 write)\n"
            "                  and selu (selugrad_forward, bound: STREAM scale, 1 read + 1 write;\n"
            "                  no uint8, no hand loop) (default: selu_grad)\n"
            "  --dtype=LIST    f32,f16,bf16,s8,u8,s32, or any name the selugrad command takes\n"
            "                  (float32, fp16, half, bfloat16, int8, ...; default: all six)\n"
            "  --size=LIST     elements, 1..16G, K/M/G suffixes (default: 4K,64K,1M,16M,128M)\n"
            "  --threads=LIST  threads per call, 1..1024 (default: 1,2)\n"
            "  --isa=LIST      scalar,avx2,avx512,avx512fp16,neon,all: cap the kernel choice\n"
            "                  (selugrad_set_max_isa); levels this CPU lacks are skipped\n"
            "                  (default: the library's own dispatch, shown as \"auto\")\n"
            "  --reps=N        samples per case, median taken (default: ~0.15 s per case)\n"
            "  --csv=FILE      also write the table as CSV\n"
            "  --plot=FILE     also draw GB/s against size as a PNG (needs gnuplot)\n"
            "  --quick         smoke run: few samples; sizes 4K,64K unless --size is given\n"
            "  --omp           also time calls right after an OpenMP parallel region, through\n"
            "                  the own pool and through the host hook, and an empty region\n"
            "                  (the host's fork and join; \"# omp\" lines)\n"
            "  --help          this text\n"
            "Options take their value as --key=VALUE or --key VALUE.\n"
            "Exit status: 0 done, 1 run-time failure, 2 bad arguments.\n"
            "Columns of the table and of the CSV:\n",
            prog);
    sgb_columns_help(f);
}

static int sgb_parse_op(const char *s, void *out) {
    if (strcmp(s, "selu_grad") == 0 || strcmp(s, "backward") == 0) return *(int *)out = 0, 0;
    if (strcmp(s, "selu") == 0 || strcmp(s, "forward") == 0) return *(int *)out = 1, 0;
    return -1;
}

static int sgb_parse_dtype(const char *s, void *out) {
    return sg_argv_dtype(s, (selugrad_dtype *)out);
}

/* A whole number with an optional binary suffix, 1 <= value <= max. */
static int sgb_parse_count(const char *s, size_t max, int suffixes, size_t *out) {
    if (*s < '0' || *s > '9') return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0) return -1;
    unsigned long long mul = 1;
    if (suffixes && *end != '\0' && end[1] == '\0') {
        switch (*end) {
        case 'k':
        case 'K':
            mul = 1ull << 10;
            break;
        case 'm':
        case 'M':
            mul = 1ull << 20;
            break;
        case 'g':
        case 'G':
            mul = 1ull << 30;
            break;
        default:
            return -1;
        }
        end++;
    }
    if (*end != '\0' || v == 0 || v > max / mul) return -1;
    *out = (size_t)(v * mul);
    return 0;
}

static int sgb_parse_size(const char *s, void *out) {
    /* 2^34 elements: far above any memory we could allocate, far below overflow. */
    return sgb_parse_count(s, (size_t)1 << 34, 1, (size_t *)out);
}

static int sgb_parse_threads(const char *s, void *out) {
    size_t v;
    if (sgb_parse_count(s, 1024, 0, &v) != 0) return -1;
    *(unsigned *)out = (unsigned)v;
    return 0;
}

static int sgb_parse_isa(const char *s, void *out) {
    return sg_isa_from_name(s, (sg_isa *)out) ? 0 : -1;
}

/* Splits a comma list and parses each item into items[i * size]. */
static int sgb_parse_list(const char *list, int (*parse)(const char *, void *), void *items,
                          size_t size, size_t *count) {
    char buf[512];
    size_t len = strlen(list);
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, list, len + 1);
    size_t n = 0;
    char *p = buf;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        if (n == SGB_MAX_LIST || parse(p, (char *)items + n * size) != 0) return -1;
        n++;
        if (!comma) break;
        p = comma + 1;
    }
    *count = n;
    return 0;
}

/* 0 when path can be written: an existing file writable (it is not opened, so not truncated),
   or a new one created: it is created and removed again, since a directory that access() calls
   writable may still refuse a file (/proc, /sys: the run's output would then be lost after the
   run); else -1 with errno set. */
static int sgb_writable(const char *path) {
    if (access(path, F_OK) == 0) return access(path, W_OK);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0) return errno == EEXIST ? 0 : -1; /* a dangling symbolic link: left to the run */
    close(fd);
    unlink(path);
    return 0;
}

static int sgb_bad(FILE *err, const char *prog, const char *why, const char *arg) {
    fprintf(err, "%s: %s: '%s'\nTry '%s --help'.\n", prog, why, arg, prog);
    return 2;
}

int sgb_parse_options(int argc, char **argv, sgb_options *opt, FILE *err) {
    const char *prog = argc > 0 && argv[0] ? argv[0] : "selugrad_bench";
    memset(opt, 0, sizeof *opt);
    opt->prog = prog;
    int have_size = 0;
    /* First --help / -h (not an option's value) and a last option without its value, as the
       selugrad subcommands do. */
    static const char *const flags[] = {"--quick", "--omp", "--help", NULL};
    static const char *const keys[] = {"--op",   "--dtype", "--size", "--threads", "--isa",
                                       "--reps", "--csv",   "--plot", NULL};
    int at = 0;
    switch (sg_argv_first_pass(argc, argv, flags, NULL, keys, &at)) {
    case SG_ARGV_HELP:
        sgb_usage(stdout, prog);
        return 1;
    case SG_ARGV_NO_VALUE:
        return sgb_bad(err, prog, "needs a value", argv[at]);
    case SG_ARGV_UNKNOWN:
        return sgb_bad(err, prog, "unknown argument", argv[at]);
    default:
        break;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            sgb_usage(stdout, prog);
            return 1;
        } else if (strcmp(a, "--quick") == 0) {
            opt->quick = 1;
        } else if (strcmp(a, "--omp") == 0) {
            opt->omp = 1;
        } else if (sg_argv_opt(argc, argv, &i, "--op", &v)) {
            if (sgb_parse_list(v, sgb_parse_op, opt->ops, sizeof opt->ops[0], &opt->nops))
                return sgb_bad(err, prog, "bad --op list (selu_grad, selu)", v);
        } else if (sg_argv_opt(argc, argv, &i, "--dtype", &v)) {
            if (sgb_parse_list(v, sgb_parse_dtype, opt->dtypes, sizeof opt->dtypes[0],
                               &opt->ndtypes))
                return sgb_bad(err, prog, "bad --dtype list", v);
        } else if (sg_argv_opt(argc, argv, &i, "--size", &v)) {
            if (sgb_parse_list(v, sgb_parse_size, opt->sizes, sizeof opt->sizes[0], &opt->nsizes))
                return sgb_bad(err, prog, "bad --size list (counts from 1 to 16G, K/M/G suffixes)",
                               v);
            have_size = 1;
        } else if (sg_argv_opt(argc, argv, &i, "--threads", &v)) {
            if (sgb_parse_list(v, sgb_parse_threads, opt->threads, sizeof opt->threads[0],
                               &opt->nthreads))
                return sgb_bad(err, prog, "bad --threads list (1..1024)", v);
        } else if (sg_argv_opt(argc, argv, &i, "--isa", &v)) {
            if (sgb_parse_list(v, sgb_parse_isa, opt->isas, sizeof opt->isas[0], &opt->nisas))
                return sgb_bad(err, prog, "bad --isa list", v);
        } else if (sg_argv_opt(argc, argv, &i, "--reps", &v)) {
            size_t r;
            if (sgb_parse_count(v, 1000000, 0, &r) != 0)
                return sgb_bad(err, prog, "bad --reps (1..1000000)", v);
            opt->reps = (unsigned)r;
        } else if (sg_argv_opt(argc, argv, &i, "--csv", &v)) {
            if (*v == '\0') return sgb_bad(err, prog, "empty file name", a);
            opt->csv = v;
        } else if (sg_argv_opt(argc, argv, &i, "--plot", &v)) {
            /* The name goes into a single-quoted gnuplot string, which has no escapes. */
            if (*v == '\0' || strchr(v, '\'') || strchr(v, '\n'))
                return sgb_bad(err, prog, "bad plot file name", v);
            opt->plot = v;
        } else {
            return sgb_bad(err, prog, "unknown argument", a);
        }
    }
    if (opt->nops == 0) opt->nops = 1; /* ops[0] is 0: selu_grad */
    /* A dtype asked for must give rows: the forward has no uint8, so with --op=selu alone a
       u8 in --dtype is refused rather than run as a table of no rows. */
    for (size_t d = 0; d < opt->ndtypes; d++) {
        int rows = 0;
        for (size_t o = 0; o < opt->nops; o++)
            rows |= opt->ops[o] == 0 || opt->dtypes[d] != SELUGRAD_UINT8;
        if (!rows)
            return sgb_bad(err, prog, "no --op has this --dtype (the forward, selu, has no uint8)",
                           selugrad_dtype_name(opt->dtypes[d]));
    }
    /* Files written after the run are checked before it: an hour's run is not lost to a
       directory that does not exist or cannot be written. */
    const char *outs[2] = {opt->csv, opt->plot}, *names[2] = {"--csv", "--plot"};
    for (int f = 0; f < 2; f++) {
        if (outs[f] == NULL || sgb_writable(outs[f]) == 0) continue;
        char why[160];
        snprintf(why, sizeof why, "cannot write the %s file (%s)", names[f], strerror(errno));
        return sgb_bad(err, prog, why, outs[f]);
    }
    if (opt->ndtypes == 0) {
        memcpy(opt->dtypes, sg_dtype_list, sizeof sg_dtype_list);
        opt->ndtypes = SG_DTYPE_COUNT;
    }
    if (!have_size) {
        static const size_t full[] = {4u << 10, 64u << 10, 1u << 20, 16u << 20, 128u << 20};
        opt->nsizes = opt->quick ? 2 : 5;
        memcpy(opt->sizes, full, opt->nsizes * sizeof full[0]);
    }
    if (opt->nthreads == 0) {
        opt->threads[0] = 1;
        opt->threads[1] = 2;
        opt->nthreads = 2;
    }
    return 0;
}
