/*
 * Shared pieces of the selugrad command: tensors on the host, option parsing, file IO, judging a
 * result by the golden model (tests/model/golden.h) and the precision standard, and running one
 * case.
 */
#ifndef SELUGRAD_TOOLS_CLI_H
#define SELUGRAD_TOOLS_CLI_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "selugrad/selugrad.h"
#include "sg_argv.h"

enum { CLI_MAX_RANK = 16, CLI_USAGE = 2 };

/* A contiguous host tensor. */
typedef struct cli_tensor {
    selugrad_dtype dtype;
    size_t rank;
    int64_t dims[CLI_MAX_RANK];
    size_t n;
    void *data;
} cli_tensor;

/* ---- args.c: options are --key=value; a usage error prints to stderr and returns 2. ---- */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Options are read with sg_argv_opt and dtypes with sg_argv_dtype (tools/common/sg_argv.h). */
/* A subcommand's first step: prints help and returns 0 when --help or -h is given (not as an
   option's value), returns the usage error's status when the last argument is an option that
   needs a value, else -1 (go on). */
int cli_begin(const char *cmd, int argc, char **argv, const char *help);
/* "2x16x32" (x or , separated, up to 16 dims), "scalar" = rank 0; dims may be -1 or -2 when
   allow_neg. cli_shape_why returns NULL on success, else why s is not a shape. */
int cli_parse_shape(const char *s, size_t *rank, int64_t *dims, int allow_neg);
const char *cli_shape_why(const char *s, size_t *rank, int64_t *dims, int allow_neg);
/* cli_shape_why's reason for a negative dim without allow_neg (the same string). */
extern const char cli_why_negative_dim[];
int cli_parse_i64(const char *s, int64_t *v);
int cli_parse_double(const char *s, double *v);
/* Splits a comma list in place-free fashion: *count items copied to out (each < 64 chars). */
int cli_split(const char *s, char sep, char out[][64], int max, int *count);
void cli_shape_str(size_t rank, const int64_t *dims, char *buf, size_t len);
size_t cli_shape_count(size_t rank, const int64_t *dims);

/* ---- tensor.c ---- */
int cli_tensor_alloc(cli_tensor *t, selugrad_dtype dt, size_t rank, const int64_t *dims);
void cli_tensor_free(cli_tensor *t);
/* Element i as a double (fp16/bf16 exactly, integers exactly). */
double cli_get(selugrad_dtype dt, const void *data, size_t i);
/* Element i as printed: a NaN of either sign shows as "nan" (the bits beside it give the sign), as
   Python's repr of selugrad.verify prints it. */
double cli_get_shown(selugrad_dtype dt, const void *data, size_t i);
/* Stores x rounded to the dtype (floats: nearest even; integers: nearest, saturated). */
void cli_set(selugrad_dtype dt, void *data, size_t i, double x);
/* x rounded to nearest even in the float dtype, overflowing to inf (no double rounding). */
double cli_round_to(selugrad_dtype dt, double x);
int cli_dtype_is_float(selugrad_dtype dt);
/* Element i formatted as "value (0xBITS)". */
void cli_format_elem(selugrad_dtype dt, const void *data, size_t i, char *buf, size_t len);

/* A small deterministic generator (splitmix64). */
typedef struct cli_rng {
    uint64_t s;
} cli_rng;
uint64_t cli_rng_next(cli_rng *r);
double cli_rng_uniform(cli_rng *r, double lo, double hi); /* in [lo, hi] */
/* Fills t uniformly from [lo, hi] and mixes in the outliers (may be NULL / 0). */
void cli_fill(cli_tensor *t, cli_rng *r, double lo, double hi, const double *outliers,
              size_t n_outliers);
/* Puts each outlier at a random place at least once (when it fits), then about one element in
   16 is replaced by a random outlier. */
void cli_mix_outliers(cli_tensor *t, cli_rng *r, const double *outliers, size_t n_outliers);

/* ---- npy.c: .npy (v1-3, little-endian, C order) and raw .bin. ---- */
/* Reads a file; dtype_hint < 0 takes the dtype from the .npy header. .bin needs dtype and
   shape (rank_hint == SIZE_MAX: one dimension from the file size). */
int cli_load(const char *path, int dtype_hint, size_t rank_hint, const int64_t *dims_hint,
             cli_tensor *t, char *err, size_t errlen);
/* Writes .npy (or raw .bin when the name ends in .bin). f64 != NULL writes those doubles.
   An existing file is replaced only by the whole new one (cli_out_open). */
int cli_save(const char *path, const cli_tensor *t, const double *f64, char *err, size_t errlen);

/* Whether a command that holds `arrays` arrays the size of the regular file path at once fits
   in the memory available: 0, or the usage error's status (exit 2) with the need and what is
   available. Beyond it each allocation succeeds and the system kills the process partway. */
int cli_files_fit(const char *cmd, const char *path, double arrays);
/* Whether paths a and b name one existing file (the same device and inode). */
int cli_same_file(const char *a, const char *b);
/* The size of cli_out_open's tmp: a path and the temporary name's suffix. */
#define CLI_OUT_TMP_MAX (PATH_MAX + 8)
/* Opens path to be written: a regular file (or a new one) through a temporary file beside it
   (tmp, of at least CLI_OUT_TMP_MAX bytes), which cli_out_close renames over it once the whole
   content is written, so a failure while writing (a full disk) leaves an existing file as it
   was; its mode is kept, and a symbolic link keeps pointing at the file it names. A device or
   a FIFO, or a directory where no temporary file can be made, is written in place (tmp "").
   NULL when path cannot be opened (errno says why). */
FILE *cli_out_open(const char *path, char *tmp, size_t cap);
/* Closes f; ok says whether every write succeeded. With a temporary file: renamed over the
   target when all went well, else removed. Returns whether the file is written whole. */
int cli_out_close(FILE *f, const char *tmp, int ok);

/* ---- progress.c: progress of a long command on stderr (docs/cli.md, "Progress"). ---- */
enum { CLI_PROGRESS_CHUNK = 1 << 20 };     /* elements between two reports of a long loop */
#define CLI_PROGRESS_MIN ((size_t)1 << 24) /* elements from which a command shows progress */
typedef struct cli_progress {
    const char *cmd;    /* "verify", ... */
    int on, tty;        /* shown at all; stderr is a terminal (a bar) */
    double total, done; /* element steps: n times the command's passes over the data */
    int shown;          /* the percentage last shown, -1 before the first */
} cli_progress;
/* A command that makes steps passes over n elements; shown when n >= CLI_PROGRESS_MIN. */
void cli_progress_begin(cli_progress *p, const char *cmd, size_t n, int steps);
/* n more element steps done, in the pass named stage ("model", "checking", ...); p may be NULL
   (no progress). */
void cli_progress_add(cli_progress *p, const char *stage, size_t n);
/* A bar 40 characters wide, done of total filled, "[####    ]", on stderr (st's too). */
void cli_progress_bar(size_t done, size_t total);
/* Ends the bar's line on a terminal when the command stopped before 100%. */
void cli_progress_end(cli_progress *p);
/* Element i (counting from 0) of a pass over n done element by element: adds the run of
   elements that ends at i to p's pass stage, every CLI_PROGRESS_CHUNK elements and at the last
   (p may be NULL). Inline: the checks call it once per element. */
static inline void cli_progress_step(cli_progress *p, const char *stage, size_t i, size_t n) {
    if ((i + 1) % CLI_PROGRESS_CHUNK == 0 || i + 1 == n)
        cli_progress_add(p, stage, i % CLI_PROGRESS_CHUNK + 1);
}

/* ---- check.c: bit-exactness against the golden model and the precision standard. ---- */
enum { CLI_MAX_FIRST = 1000 };
typedef struct cli_check {
    size_t n;
    size_t mismatches;           /* elements not bit-identical to the golden model */
    size_t first[CLI_MAX_FIRST]; /* their first indices */
    size_t nfirst;
    double mere, mare;  /* precision standard against the float64 golden */
    size_t special_bad; /* inf/NaN not matching the golden (integers: values unequal) */
    size_t worst;       /* index of the largest relative error */
    double threshold;   /* the dtype's MERE bound (MARE bound is 10x); 0 for integers */
    int precision_ok, bit_ok;
} cli_check;

/* The golden model's result for n elements (gm_selugrad_array). */
void cli_model(selugrad_dtype dt, size_t n, const void *g, const void *o, void *y);
/* The float64 golden of element i, before rounding to the dtype (gm_selugrad_f64). Integers:
   the exact integer result. */
double cli_golden(selugrad_dtype dt, const void *g, const void *o, size_t i);
/* cli_model in chunks, adding each to p's pass "model" (p may be NULL). */
void cli_model_progress(selugrad_dtype dt, size_t n, const void *g, const void *o, void *y,
                        cli_progress *p);
/* Judges y (n elements) for inputs g, o. */
int cli_check_run(selugrad_dtype dt, size_t n, const void *g, const void *o, const void *y,
                  cli_check *c);
/* The same, keeping the model's result in keep (n elements; NULL: not kept) and adding its two
   passes, "model" and "checking", to p (may be NULL). */
int cli_check_progress(selugrad_dtype dt, size_t n, const void *g, const void *o, const void *y,
                       void *keep, cli_progress *p, cli_check *c);
/* One line naming what failed in c: bit mismatches (and the first one), the precision bound
   that was not met (and the worst element), inf/NaN mismatches. */
void cli_check_summary(const cli_check *c, char *buf, size_t len);

/* Distance between element i of a and of b in units in the last place: the count of values of
   the float dtype between them (ordered bit patterns, so +0 against -0 is 0), INFINITY when
   exactly one is NaN, 0 when both are; integers: the plain difference. */
double cli_ulp(selugrad_dtype dt, const void *a, const void *b, size_t i);
/* "N ulps" ("1 ulp"), or "NaN against a number" for INFINITY. */
void cli_ulp_str(double u, char *buf, size_t len);
/* The largest cli_ulp over n elements of model and y (0 when they are equal). */
double cli_max_ulp(selugrad_dtype dt, size_t n, const void *model, const void *y);
/* verify's precision line for c over n elements of dt; with worst_at, the index of the worst
   element too. */
void cli_print_precision(const cli_check *c, selugrad_dtype dt, size_t n, int worst_at);
/* verify's verdict line: against golden (e.g. "the NPU kernel's result"), whose bits are
   golden_bits; ulps the largest distance (cli_ulp_str). */
void cli_print_verdict(const cli_check *c, size_t n, const char *ulps, const char *golden,
                       const char *golden_bits);

/* ---- case_exec.c: runs one case through the library's public API. ---- */
/* strides: NULL for contiguous; else per-dim element strides shared by the three views, and
   g, o, y point at storage laid out with them. Returns a selugrad or aclnn status, 0 = OK. */
int cli_exec_case(selugrad_dtype dt, size_t rank, const int64_t *dims, const int64_t *strides,
                  const void *g, const void *o, void *y, char *err, size_t errlen);
/* Makes the cases that follow run on SoC soc (a known name): sets SELUGRAD_SOC and ends acl, so
   that the next case starts it again with that SoC. 0, or -1 when setenv fails. */
int cli_exec_use_soc(const char *soc);

/* Which API cli_exec_case uses for dtype ("aclnn", or "native" for UINT8). */
const char *cli_exec_api(selugrad_dtype dt);
/* aclInit, the device and the stream, once; 0, or -1 with why in err. */
int cli_acl_ready(char *err, size_t errlen);
/* The stream cli_acl_ready made (an aclrtStream). */
void *cli_acl_stream(void);

/* ---- forward.c: the SELU forward ---- */
/* Runs y = selu(x) through aclnnSelu, or aclnnInplaceSelu on a copy of x when inplace; x and y
   are the storage of views of the shape with the element strides (NULL: contiguous, n of the
   shape; else the elements the strides reach, as cli_exec_case). 0, or an aclnn / acl status with
   why in err. */
int cli_fwd_exec(selugrad_dtype dt, size_t rank, const int64_t *dims, const int64_t *strides,
                 const void *x, void *y, int inplace, char *err, size_t errlen);
/* Judges y for x: bit for bit against the forward's golden model (the library's exponential),
   and by the precision standard against the golden with the correctly rounded exponential. */
int cli_fwd_check(selugrad_dtype dt, size_t n, const void *x, const void *y, cli_check *c);
/* The same, keeping the golden's result in keep (n elements; NULL: not kept) and adding its
   three passes, "model", "exact golden" and "checking", to p (may be NULL). */
int cli_fwd_check_progress(selugrad_dtype dt, size_t n, const void *x, const void *y, void *keep,
                           cli_progress *p, cli_check *c);
/* Whether the command line asks for the forward (--op=selu). */
int cli_fwd_wanted(int argc, char **argv);
/* `verify` and `compute` with --op=selu, aclnnSelu's tensor names: --self=X (alias --x), and
   --out=Y (the result under test) or -o Y (docs/cli.md). */
int cli_fwd_io(const char *cmd, int argc, char **argv);

/* ---- subcommands ---- */
int cli_cmd_run(int argc, char **argv);
int cli_cmd_verify(int argc, char **argv);
int cli_cmd_compute(int argc, char **argv);
int cli_cmd_st(int argc, char **argv);
int cli_cmd_tiling(int argc, char **argv);
int cli_cmd_infershape(int argc, char **argv);
int cli_cmd_info(int argc, char **argv);
int cli_cmd_bench(int argc, char **argv);

#endif /* SELUGRAD_TOOLS_CLI_H */
