/*
 * ATK case files as ops-nn writes them: integer or string ids, the operator in aclnn_name or
 * name, a "standard" key, inputs with type/required/backward/align_32B keys (ignored, as every key
 * not read here), range_values as [lo, hi] or as a normal distribution, outlier_values as a list
 * or null.
 */
#include "st_case.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

int st_case_id(const cJSON *c, char *id, size_t len) {
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(c, "id");
    if (cJSON_IsString(j) && j->valuestring[0] != '\0' && strlen(j->valuestring) < len) {
        snprintf(id, len, "%s", j->valuestring);
        return 0;
    }
    double v = cJSON_IsNumber(j) ? j->valuedouble : 0.5;
    if (v != floor(v) || fabs(v) > 9007199254740992.0) return -1; /* whole, and exact in double */
    snprintf(id, len, "%.0f", v);
    return 0;
}

/* A number, or one of the strings "inf", "-inf", "nan", "-0" that JSON cannot spell. */
static int st_number(const cJSON *j, double *v) {
    if (cJSON_IsNumber(j)) return *v = j->valuedouble, 0;
    if (!cJSON_IsString(j)) return -1;
    const char *s = j->valuestring;
    if (strcmp(s, "inf") == 0 || strcmp(s, "+inf") == 0)
        *v = INFINITY;
    else if (strcmp(s, "-inf") == 0)
        *v = -INFINITY;
    else if (strcmp(s, "nan") == 0 || strcmp(s, "-nan") == 0)
        *v = NAN;
    else if (strcmp(s, "-0") == 0)
        *v = -0.0;
    else
        return cli_parse_double(s, v);
    return 0;
}

/* [lo, hi] with lo <= hi, both finite when finite is set. */
static int st_pair(const cJSON *j, double *lo, double *hi, int finite) {
    return cJSON_IsArray(j) && cJSON_GetArraySize(j) == 2 &&
                   st_number(cJSON_GetArrayItem(j, 0), lo) == 0 &&
                   st_number(cJSON_GetArrayItem(j, 1), hi) == 0 && *lo <= *hi &&
                   (!finite || (isfinite(*lo) && isfinite(*hi)))
               ? 0
               : -1;
}

/* range_values: [lo, hi]; [[lo, hi], ...] (the first range); [v], every element v (a number or
   "inf", "-inf", "nan", "-0", as ops-nn's files give ["nan"]); {"name": "nd", "mean": [lo, hi],
   "std": [lo, hi]}. [v, v] is v in every element too (also for v = inf). */
static int st_range(const cJSON *range, st_input *p, char *err, size_t len) {
    if (cJSON_IsObject(range)) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(range, "name");
        if (!cJSON_IsString(nm) || strcmp(nm->valuestring, "nd") != 0)
            return snprintf(err, len,
                            "range_values names the distribution '%s' (expected \"nd\", the "
                            "normal one, or a [lo, hi] list)",
                            cJSON_IsString(nm) ? nm->valuestring : "(none)"),
                   -1;
        p->normal = 1;
        if (st_pair(cJSON_GetObjectItemCaseSensitive(range, "mean"), &p->lo, &p->hi, 1) != 0 ||
            st_pair(cJSON_GetObjectItemCaseSensitive(range, "std"), &p->std_lo, &p->std_hi, 1) !=
                0 ||
            p->std_lo < 0)
            return snprintf(err, len,
                            "range_values {\"name\": \"nd\"} needs \"mean\": [lo, hi] and \"std\": "
                            "[lo, hi] with finite lo <= hi and std >= 0"),
                   -1;
        return 0;
    }
    const cJSON *r = cJSON_IsArray(range) ? range->child : NULL;
    if (cJSON_IsArray(r)) range = r;
    if (cJSON_IsArray(range) && cJSON_GetArraySize(range) == 1 &&
        st_number(range->child, &p->lo) == 0) {
        p->hi = p->lo;
        p->constant = 1;
        return 0;
    }
    if (st_pair(range, &p->lo, &p->hi, 0) != 0)
        return snprintf(err, len, "range_values must be [lo, hi] with lo <= hi, or [v]"), -1;
    p->constant = p->lo == p->hi;
    return 0;
}

static int st_parse_input(const cJSON *in, st_input *p, char *err, size_t len) {
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(in, "dtype");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(in, "shape");
    const cJSON *outl = cJSON_GetObjectItemCaseSensitive(in, "outlier_values");
    memset(p, 0, sizeof *p);
    if (!cJSON_IsString(dt) || sg_argv_dtype(dt->valuestring, &p->dtype) != 0)
        return snprintf(err, len, "missing or unknown dtype"), -1;
    if (!cJSON_IsArray(shape)) return snprintf(err, len, "missing shape (a list of dims)"), -1;
    if (cJSON_GetArraySize(shape) > CLI_MAX_RANK)
        return snprintf(err, len, "shape has more than %d dims", CLI_MAX_RANK), -1;
    const cJSON *d;
    cJSON_ArrayForEach(d, shape) {
        if (!cJSON_IsNumber(d) || d->valuedouble < 0 || d->valuedouble > 1e9 ||
            d->valuedouble != (double)(int64_t)d->valuedouble)
            return snprintf(err, len, "bad dim in shape (whole numbers 0 to 1e9)"), -1;
        p->dims[p->rank++] = (int64_t)d->valuedouble;
    }
    if (cli_shape_count(p->rank, p->dims) > (size_t)1 << 26)
        return snprintf(err, len, "shape too large (more than 2^26 elements)"), -1;
    if (st_range(cJSON_GetObjectItemCaseSensitive(in, "range_values"), p, err, len) != 0) return -1;
    if (outl && !cJSON_IsNull(outl)) {
        if (!cJSON_IsArray(outl)) return snprintf(err, len, "outlier_values must be a list"), -1;
        cJSON_ArrayForEach(d, outl) {
            if (p->n_outliers == ST_MAX_OUTLIERS || st_number(d, &p->outliers[p->n_outliers]) != 0)
                return snprintf(err, len, "bad outlier value"), -1;
            p->n_outliers++;
        }
    }
    return 0;
}

/* An operator name reduced to lower-case letters and digits, without an "aclnn" prefix:
   "aclnnSeluBackward", "SeluBackward", "aclnn.selu.backward" and "selu_backward" all give
   "selubackward". */
static void st_op_key(const char *s, char *out, size_t len) {
    size_t n = 0;
    for (; *s && n + 1 < len; s++)
        if (isalnum((unsigned char)*s)) out[n++] = (char)tolower((unsigned char)*s);
    out[n] = '\0';
    if (strncmp(out, "aclnn", 5) == 0) memmove(out, out + 5, n - 5 + 1);
}

/* The operator from aclnn_name, else from name, in any of those spellings: SeluBackward (0),
   Selu (1; ops-nn's "aclnn.selu"), InplaceSelu (2); -1 with why in err. */
static int st_parse_op(const cJSON *c, char *err, size_t len) {
    const cJSON *an = cJSON_GetObjectItemCaseSensitive(c, "aclnn_name");
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(c, "name");
    const cJSON *op = an ? an : nm;
    const char *key_name = an ? "aclnn_name" : "name";
    if (op == NULL)
        return snprintf(err, len, "the case names no operator (aclnn_name or name)"), -1;
    if (!cJSON_IsString(op)) return snprintf(err, len, "%s is not a string", key_name), -1;
    char key[64];
    st_op_key(op->valuestring, key, sizeof key);
    if (strcmp(key, "selubackward") == 0) return 0;
    if (strcmp(key, "selu") == 0) return 1;
    if (strcmp(key, "inplaceselu") == 0) return 2;
    return snprintf(err, len, "%s %s is not aclnnSeluBackward, aclnnSelu or aclnnInplaceSelu",
                    key_name, op->valuestring),
           -1;
}

/* The forward's input: named x (or self, selfRef), else the first tensor input. */
static int st_parse_fwd(const cJSON *inputs, st_case *k, char *err, size_t len) {
    const cJSON *xi = NULL, *first = NULL, *in;
    cJSON_ArrayForEach(in, inputs) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(in, "name");
        const cJSON *ty = cJSON_GetObjectItemCaseSensitive(in, "type");
        if (cJSON_IsString(nm) &&
            (strcmp(nm->valuestring, "x") == 0 || strcmp(nm->valuestring, "self") == 0 ||
             strcmp(nm->valuestring, "selfRef") == 0))
            xi = in;
        if (!first &&
            (ty == NULL || (cJSON_IsString(ty) && strcmp(ty->valuestring, "tensor") == 0)))
            first = in;
    }
    if (!xi) xi = first;
    if (!xi) return snprintf(err, len, "inputs must list x"), -1;
    char e2[200];
    if (st_parse_input(xi, &k->g, e2, sizeof e2) != 0) return snprintf(err, len, "x: %s", e2), -1;
    if (k->g.dtype == SELUGRAD_UINT8) return snprintf(err, len, "x: the forward has no uint8"), -1;
    return 0;
}

/* "standard": {"acc": "single_bm"} or {"acc": {"single_bm": {"type": "high_performance"}}}; ATK
   takes high_precision when no type is given. Absent: ours. */
static int st_parse_standard(const cJSON *c, st_case *k, char *err, size_t len) {
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(c, "standard");
    const cJSON *acc = cJSON_IsObject(st) ? cJSON_GetObjectItemCaseSensitive(st, "acc") : NULL;
    const char *name = NULL, *type = "high_precision";
    if (st == NULL || cJSON_IsNull(st) || (cJSON_IsObject(st) && acc == NULL)) {
        name = "single_bm";
    } else if (cJSON_IsString(acc)) {
        name = acc->valuestring;
    } else if (cJSON_IsObject(acc) && acc->child != NULL) {
        name = acc->child->string;
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(acc->child, "type");
        if (cJSON_IsString(t)) type = t->valuestring;
    }
    if (name == NULL)
        return snprintf(err, len,
                        "standard.acc must be a name or {name: {...}}, e.g. \"single_bm\""),
               -1;
    int single_bm = strcmp(name, "single_bm") == 0;
    snprintf(k->standard, sizeof k->standard, "%s%s%s", name, single_bm ? " " : "",
             single_bm ? type : "");
    k->standard_ours = strcmp(k->standard, ST_STANDARD_OURS) == 0;
    return 0;
}

/* gradOutput and result by name, else the first two tensor inputs in order (the forward: x). */
int st_case_parse(const cJSON *c, st_case *k, char *err, size_t len) {
    memset(k, 0, sizeof *k);
    k->op = st_parse_op(c, err, len);
    if (k->op < 0 || st_parse_standard(c, k, err, len) != 0) return -1;
    const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(c, "inputs");
    if (!cJSON_IsArray(inputs)) inputs = NULL;
    if (k->op != 0) return st_parse_fwd(inputs, k, err, len);
    const cJSON *gi = NULL, *oi = NULL, *first[2] = {NULL, NULL}, *in;
    int tensors = 0;
    cJSON_ArrayForEach(in, inputs) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(in, "name");
        const cJSON *ty = cJSON_GetObjectItemCaseSensitive(in, "type");
        if (cJSON_IsString(nm) && strcmp(nm->valuestring, "gradOutput") == 0) gi = in;
        if (cJSON_IsString(nm) && strcmp(nm->valuestring, "result") == 0) oi = in;
        if ((ty == NULL || (cJSON_IsString(ty) && strcmp(ty->valuestring, "tensor") == 0)) &&
            tensors < 2)
            first[tensors++] = in;
    }
    if (!gi || !oi) gi = first[0], oi = first[1];
    if (!gi || !oi) return snprintf(err, len, "inputs must list gradOutput and result"), -1;
    char e2[200];
    if (st_parse_input(gi, &k->g, e2, sizeof e2) != 0)
        return snprintf(err, len, "gradOutput: %s", e2), -1;
    if (st_parse_input(oi, &k->o, e2, sizeof e2) != 0)
        return snprintf(err, len, "result: %s", e2), -1;
    return 0;
}

/* A standard normal value (Box-Muller, the cosine half). */
static double st_gauss(cli_rng *r) {
    double u1 = ((double)(cli_rng_next(r) >> 11) + 1.0) * 0x1p-53; /* (0, 1] */
    double u2 = (double)(cli_rng_next(r) >> 11) * 0x1p-53;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

void st_fill(cli_tensor *t, cli_rng *r, const st_input *in) {
    if (in->constant) {
        for (size_t i = 0; i < t->n; i++) cli_set(t->dtype, t->data, i, in->lo);
        cli_mix_outliers(t, r, in->outliers, in->n_outliers);
        return;
    }
    if (!in->normal) {
        cli_fill(t, r, in->lo, in->hi, in->outliers, in->n_outliers);
        return;
    }
    double mean = cli_rng_uniform(r, in->lo, in->hi);
    double sd = cli_rng_uniform(r, in->std_lo, in->std_hi);
    for (size_t i = 0; i < t->n; i++) cli_set(t->dtype, t->data, i, mean + sd * st_gauss(r));
    cli_mix_outliers(t, r, in->outliers, in->n_outliers);
}
