/*
 * One case of an ATK system-test file (docs/st-format.md), parsed: its id, the operator, the
 * precision standard it names, and gradOutput and result with their dtype, shape, value
 * distribution and outliers. Also the filling of a tensor from such an input.
 */
#ifndef SELUGRAD_TOOLS_ST_CASE_H
#define SELUGRAD_TOOLS_ST_CASE_H

#include <cjson/cJSON.h>

#include "cli.h"

enum { ST_MAX_OUTLIERS = 64, ST_ID_MAX = 64, ST_STANDARD_MAX = 64 };

/* Values of an input: uniform in [lo, hi], or normal with a mean drawn from [lo, hi] and a
   standard deviation drawn from [std_lo, std_hi] (ATK's {"name": "nd", "mean", "std"}), or, when
   constant is set, lo in every element (ATK's [v], e.g. ["nan"], and [v, v]). */
typedef struct st_input {
    selugrad_dtype dtype;
    size_t rank;
    int64_t dims[CLI_MAX_RANK];
    int normal, constant;
    double lo, hi, std_lo, std_hi;
    double outliers[ST_MAX_OUTLIERS];
    size_t n_outliers;
} st_input;

typedef struct st_case {
    int op; /* 0 aclnnSeluBackward (g, o); 1 aclnnSelu, 2 aclnnInplaceSelu (x in g) */
    char standard[ST_STANDARD_MAX]; /* as the case names it, e.g. "single_bm high_precision" */
    int standard_ours;              /* whether that is the precision standard selugrad judges by */
    st_input g, o;
} st_case;

/* The precision standard every case is judged by (docs/contract.md, "Precision standard"). */
#define ST_STANDARD_OURS "single_bm high_precision"

/* The case's id as text: a non-empty string, or a whole number (ATK numbers its cases 0, 1,
   ...). 0, or -1 when the id is missing or neither. */
int st_case_id(const cJSON *c, char *id, size_t len);

/* The operator, the standard and the inputs (two for SeluGrad, x for the forward); 0, or -1 with
   why in err. Keys it does not know are ignored. */
int st_case_parse(const cJSON *c, st_case *k, char *err, size_t len);

/* Fills t with in's distribution from r, then mixes in its outliers. */
void st_fill(cli_tensor *t, cli_rng *r, const st_input *in);

#endif /* SELUGRAD_TOOLS_ST_CASE_H */
