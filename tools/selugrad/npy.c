/*
 * NumPy .npy files (format versions 1 to 3, little-endian, C order) and raw .bin files.
 * bf16 has no NumPy type: it is stored as '<u2' (its bit patterns), read from '<u2', '<i2' or
 * '<V2' when --dtype=bf16 says so. The header is a Python dict literal; only 'descr',
 * 'fortran_order' and 'shape' are read.
 */
#define _DEFAULT_SOURCE /* mkstemp, realpath, fchmod */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_files_fit(const char *cmd, const char *path, double arrays) {
    struct stat st;
    double avail = sg_argv_available_memory(), gib = 1024.0 * 1024.0 * 1024.0;
    if (path == NULL || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || avail <= 0) return 0;
    double need = (double)st.st_size * arrays;
    if (need <= avail) return 0;
    return cli_usage_error(cmd,
                           "%s holds %.1f GiB: with the command's other arrays (%.0f of that "
                           "size) it needs at least %.1f GiB of memory, more than the %.1f GiB "
                           "available",
                           path, (double)st.st_size / gib, arrays, need / gib, avail / gib);
}

int cli_same_file(const char *a, const char *b) {
    struct stat sa, sb;
    return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* The suffix of cli_out_open's temporary name (CLI_OUT_TMP_MAX leaves room for it). */
#define CLI_TMP_SUFFIX ".XXXXXX"
_Static_assert(sizeof CLI_TMP_SUFFIX <= 8, "CLI_OUT_TMP_MAX holds the suffix");

FILE *cli_out_open(const char *path, char *tmp, size_t cap) {
    tmp[0] = '\0';
    struct stat st;
    int exists = stat(path, &st) == 0;
    /* a device or a FIFO (/dev/stdout, /dev/full) is written as it is, and a link to no file
       creates the file it names, as fopen does */
    if ((exists && !S_ISREG(st.st_mode)) || (!exists && lstat(path, &st) == 0))
        return fopen(path, "wb");
    if (exists && access(path, W_OK) != 0) return NULL; /* a read-only file stays so */
    char real[PATH_MAX];
    const char *target = exists && realpath(path, real) ? real : path; /* a link keeps its link */
    int fd = -1;
    if ((size_t)snprintf(tmp, cap, "%s" CLI_TMP_SUFFIX, target) < cap) fd = mkstemp(tmp);
    if (fd < 0) { /* e.g. a directory that only lets the file itself be written */
        tmp[0] = '\0';
        return fopen(path, "wb");
    }
    mode_t mask = umask(0);
    umask(mask);
    FILE *f = fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask) == 0 ? fdopen(fd, "wb") : NULL;
    if (f == NULL) {
        close(fd);
        unlink(tmp);
        tmp[0] = '\0';
        return fopen(path, "wb");
    }
    return f;
}

int cli_out_close(FILE *f, const char *tmp, int ok) {
    ok = fclose(f) == 0 && ok;
    if (tmp[0] == '\0') return ok;
    char target[CLI_OUT_TMP_MAX];
    size_t n = strlen(tmp) - (sizeof CLI_TMP_SUFFIX - 1);
    memcpy(target, tmp, n);
    target[n] = '\0';
    ok = ok && rename(tmp, target) == 0;
    if (!ok) unlink(tmp);
    return ok;
}

static int cli_ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static const char *cli_descr_of(selugrad_dtype dt) {
    switch (dt) {
    case SELUGRAD_FLOAT:
        return "<f4";
    case SELUGRAD_FLOAT16:
        return "<f2";
    case SELUGRAD_BF16:
        return "<u2";
    case SELUGRAD_INT8:
        return "|i1";
    case SELUGRAD_UINT8:
        return "|u1";
    case SELUGRAD_INT32:
        return "<i4";
    }
    return "";
}

/* The dtype of a descr; a hint decides between the 2-byte readings. */
static int cli_dtype_of_descr(const char *d, int hint, selugrad_dtype *dt) {
    if (strcmp(d, "<f4") == 0)
        *dt = SELUGRAD_FLOAT;
    else if (strcmp(d, "<f2") == 0)
        *dt = SELUGRAD_FLOAT16;
    else if (strcmp(d, "|i1") == 0 || strcmp(d, "<i1") == 0)
        *dt = SELUGRAD_INT8;
    else if (strcmp(d, "|u1") == 0 || strcmp(d, "<u1") == 0)
        *dt = SELUGRAD_UINT8;
    else if (strcmp(d, "<i4") == 0)
        *dt = SELUGRAD_INT32;
    else if (strcmp(d, "<u2") == 0 || strcmp(d, "<i2") == 0 || strcmp(d, "|V2") == 0 ||
             strcmp(d, "<V2") == 0 || strcmp(d, "bfloat16") == 0)
        *dt = SELUGRAD_BF16;
    else
        return -1;
    if (hint >= 0 && (selugrad_dtype)hint != *dt) {
        /* raw 2-byte patterns may be read as either 16-bit float type */
        int both16 = selugrad_dtype_size((selugrad_dtype)hint) == 2 && *dt == SELUGRAD_BF16;
        if (!both16) return -2;
        *dt = (selugrad_dtype)hint;
    }
    return 0;
}

/* Finds 'key': in the header and returns what follows the colon. */
static const char *cli_dict_value(const char *h, const char *key) {
    const char *p = strstr(h, key);
    if (!p) return NULL;
    p = strchr(p + strlen(key), ':');
    if (!p) return NULL;
    p++;
    while (*p == ' ') p++;
    return p;
}

static int cli_parse_header(const char *h, int hint, cli_tensor *t, char *err, size_t len) {
    const char *d = cli_dict_value(h, "'descr'");
    const char *f = cli_dict_value(h, "'fortran_order'");
    const char *s = cli_dict_value(h, "'shape'");
    if (!d || !f || !s || *d != '\'' || *s != '(') {
        snprintf(err, len, "malformed .npy header");
        return -1;
    }
    char descr[16];
    const char *q = strchr(d + 1, '\'');
    if (!q || (size_t)(q - d - 1) >= sizeof descr) {
        snprintf(err, len, "malformed descr in .npy header");
        return -1;
    }
    memcpy(descr, d + 1, (size_t)(q - d - 1));
    descr[q - d - 1] = '\0';
    int rc = cli_dtype_of_descr(descr, hint, &t->dtype);
    if (rc != 0) {
        if (rc == -1)
            snprintf(err, len, "unsupported .npy dtype '%s'", descr);
        else
            snprintf(err, len,
                     ".npy dtype '%s' is not %s (the dtype of --dtype, else of the first input)",
                     descr, selugrad_dtype_name((selugrad_dtype)hint));
        return -1;
    }
    if (strncmp(f, "False", 5) != 0) {
        snprintf(err, len, "Fortran-order .npy files are not supported");
        return -1;
    }
    t->rank = 0;
    const char *p = s + 1;
    for (;;) {
        while (*p == ' ' || *p == ',') p++;
        if (*p == ')') break;
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (end != p && t->rank == CLI_MAX_RANK) {
            snprintf(err, len, "the .npy shape has more than %d dimensions", CLI_MAX_RANK);
            return -1;
        }
        if (end == p || v < 0 || errno != 0) {
            snprintf(err, len, "malformed shape in .npy header (dims are 0 to 2^63 - 1)");
            return -1;
        }
        t->dims[t->rank++] = (int64_t)v;
        p = end;
    }
    return 0;
}

static int cli_read_body(FILE *f, cli_tensor *t, char *err, size_t len) {
    t->n = cli_shape_count(t->rank, t->dims);
    size_t es = selugrad_dtype_size(t->dtype);
    if (t->n > (SIZE_MAX / 2) / es) {
        snprintf(err, len, "the shape is too large (more elements than memory can address)");
        return -1;
    }
    /* Compare with the bytes the file holds before allocating for the shape's claim. */
    long here = ftell(f);
    if (here >= 0 && fseek(f, 0, SEEK_END) == 0) {
        long end = ftell(f);
        if (end >= here && fseek(f, here, SEEK_SET) == 0) {
            size_t have = (size_t)(end - here);
            if (have % es != 0) {
                snprintf(err, len,
                         "%zu bytes is not a whole number of %zu-byte %s elements (check the "
                         "dtype)",
                         have, es, selugrad_dtype_name(t->dtype));
                return -1;
            }
            if (have != t->n * es) {
                snprintf(err, len,
                         "file is %s than its shape says (%zu bytes of data, the shape needs "
                         "%zu elements of %zu bytes)",
                         have < t->n * es ? "shorter" : "longer", have, t->n, es);
                return -1;
            }
        }
    }
    t->data = calloc(t->n ? t->n : 1, es);
    if (!t->data) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    if (fread(t->data, es, t->n, f) != t->n) {
        snprintf(err, len, "file is shorter than its shape says");
        cli_tensor_free(t);
        return -1;
    }
    if (fgetc(f) != EOF) { /* extra bytes mean the shape or the dtype is not what was meant */
        snprintf(err, len, "file is longer than its shape says (%zu elements of %zu bytes)", t->n,
                 es);
        cli_tensor_free(t);
        return -1;
    }
    return 0;
}

static int cli_load_npy(FILE *f, int hint, cli_tensor *t, char *err, size_t len) {
    unsigned char pre[12];
    if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) != 0) {
        snprintf(err, len, "not a .npy file (bad magic)");
        return -1;
    }
    size_t hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
    if (pre[6] >= 2) { /* versions 2 and 3: a 4-byte header length */
        if (fread(pre + 10, 1, 2, f) != 2) {
            snprintf(err, len, "truncated .npy header");
            return -1;
        }
        hlen |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    }
    if (hlen > 1u << 20) {
        snprintf(err, len, ".npy header too large");
        return -1;
    }
    char *h = malloc(hlen + 1);
    if (!h || fread(h, 1, hlen, f) != hlen) {
        free(h);
        snprintf(err, len, "truncated .npy header");
        return -1;
    }
    h[hlen] = '\0';
    int rc = cli_parse_header(h, hint, t, err, len);
    free(h);
    return rc == 0 ? cli_read_body(f, t, err, len) : -1;
}

int cli_load(const char *path, int dtype_hint, size_t rank_hint, const int64_t *dims_hint,
             cli_tensor *t, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    struct stat st;
    FILE *f = NULL;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) /* fopen would open it */
        errno = EISDIR;
    else
        f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    int rc;
    if (!cli_ends_with(path, ".bin")) {
        rc = cli_load_npy(f, dtype_hint, t, err, errlen);
    } else if (dtype_hint < 0) {
        snprintf(err, errlen, "a .bin file needs --dtype");
        rc = -1;
    } else {
        t->dtype = (selugrad_dtype)dtype_hint;
        if (rank_hint == (size_t)-1) { /* one dimension from the size */
            fseek(f, 0, SEEK_END);
            long sz = ftell(f);
            fseek(f, 0, SEEK_SET);
            t->rank = 1; /* a partial last element is reported by cli_read_body */
            t->dims[0] = (int64_t)((size_t)(sz < 0 ? 0 : sz) / selugrad_dtype_size(t->dtype));
        } else {
            t->rank = rank_hint;
            for (size_t i = 0; i < rank_hint; i++) t->dims[i] = dims_hint[i];
        }
        rc = cli_read_body(f, t, err, errlen);
    }
    if (rc != 0) {
        char tmp[256];
        snprintf(tmp, sizeof tmp, "%s: %s", path, err);
        snprintf(err, errlen, "%s", tmp);
    }
    fclose(f);
    return rc;
}

int cli_save(const char *path, const cli_tensor *t, const double *f64, char *err, size_t errlen) {
    char tmp[CLI_OUT_TMP_MAX];
    FILE *f = cli_out_open(path, tmp, sizeof tmp);
    if (!f) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    size_t es = f64 ? sizeof(double) : selugrad_dtype_size(t->dtype);
    const void *body = f64 ? (const void *)f64 : t->data;
    int ok = 1;
    if (!cli_ends_with(path, ".bin")) {
        /* every dim as "%lld," (at most 21 characters), then the dict around them */
        char shape[CLI_MAX_RANK * 21 + 1], h[sizeof shape + 96];
        size_t used = 0;
        shape[0] = '\0';
        for (size_t i = 0; i < t->rank; i++)
            used +=
                (size_t)snprintf(shape + used, sizeof shape - used, "%lld,", (long long)t->dims[i]);
        if (t->rank > 1) shape[used - 1] = '\0'; /* (n,) keeps its comma, (a,b) does not */
        int n = snprintf(h, sizeof h, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }",
                         f64 ? "<f8" : cli_descr_of(t->dtype), shape);
        size_t total = 10 + (size_t)n + 1;
        size_t pad = (64 - total % 64) % 64;
        size_t hlen = (size_t)n + pad + 1;
        unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
        pre[8] = (unsigned char)(hlen & 0xFF);
        pre[9] = (unsigned char)(hlen >> 8);
        ok = fwrite(pre, 1, 10, f) == 10 && fwrite(h, 1, (size_t)n, f) == (size_t)n;
        for (size_t i = 0; ok && i < pad; i++) ok = fputc(' ', f) != EOF;
        ok = ok && fputc('\n', f) != EOF;
    }
    ok = ok && fwrite(body, es, t->n, f) == t->n;
    ok = cli_out_close(f, tmp, ok);
    if (!ok) snprintf(err, errlen, "cannot write %s", path);
    return ok ? 0 : -1;
}
