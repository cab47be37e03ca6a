/* `selugrad tiling` and `selugrad infershape`: the graph side from the command line. */
#include <string.h>

#include <cjson/cJSON.h>

#include "runtime/soc.h"
#include "cli.h"
#include "selugrad/selugrad_graph.h"

static const char cli_tiling_help[] =
    "usage: selugrad tiling [--soc=NAME | --cores=N --ub=BYTES] --dtype=DT --shape=AxBx...\n"
    "                       [--json]\n"
    "The NPU OneDim tiling of SeluGrad (docs/contract.md, \"Tiling\") for one shape and dtype.\n"
    "  --soc=NAME     a SoC profile (see `selugrad info`), e.g. Ascend950; without --soc and\n"
    "                 --cores/--ub: the SoC of SELUGRAD_SOC (default Ascend910B)\n"
    "  --cores=N      vector cores (with --ub, in place of --soc)\n"
    "  --ub=BYTES     unified buffer bytes per core\n"
    "  --dtype=DT     f32, f16, bf16, s32, s8, u8\n"
    "  --shape=S      e.g. 13023360 or 2x16x32x16 ('scalar' for rank 0)\n"
    "  --json         print one JSON object (totalElements, blockFormer, ubFormer, blockDim,\n"
    "                 workspaceSize)\n";

static void cli_print_json(cJSON *obj) {
    char *s = cJSON_PrintUnformatted(obj);
    if (s) puts(s);
    cJSON_free(s);
    cJSON_Delete(obj);
}

/* An int64 as a JSON number with all its digits (a cJSON number is a double: exact only up to
   2^53). */
static cJSON *cli_json_i64(int64_t v) {
    char buf[24];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    return cJSON_CreateRaw(buf);
}

/* NULL on success, else why text is not a shape. */
static const char *cli_to_shape(const char *text, selugrad_shape *s, int allow_neg) {
    memset(s, 0, sizeof *s);
    int64_t dims[CLI_MAX_RANK];
    size_t rank;
    const char *why = cli_shape_why(text, &rank, dims, allow_neg);
    if (why) return why;
    if (rank > SELUGRAD_SHAPE_DIMS) return "more dims than selugrad_shape holds";
    s->rank = rank;
    for (size_t i = 0; i < rank; i++) s->dims[i] = dims[i];
    return NULL;
}

int cli_cmd_tiling(int argc, char **argv) {
    int pre = cli_begin("tiling", argc, argv, cli_tiling_help);
    if (pre >= 0) return pre;
    const char *soc = NULL, *v, *why;
    int64_t cores = -1, ub = -1;
    int json = 0, have_dt = 0, have_shape = 0;
    selugrad_dtype dt = SELUGRAD_FLOAT;
    selugrad_shape shape;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (sg_argv_opt(argc, argv, &i, "--soc", &v))
            soc = v;
        else if (sg_argv_opt(argc, argv, &i, "--cores", &v)) {
            if (cli_parse_i64(v, &cores) != 0 || cores < 1)
                return cli_usage_error("tiling", "bad --cores '%s' (a whole number from 1)", v);
        } else if (sg_argv_opt(argc, argv, &i, "--ub", &v)) {
            if (cli_parse_i64(v, &ub) != 0 || ub < 0)
                return cli_usage_error("tiling", "bad --ub '%s' (bytes, 0 or more)", v);
        } else if (sg_argv_opt(argc, argv, &i, "--dtype", &v)) {
            if (sg_argv_dtype(v, &dt) != 0)
                return cli_usage_error("tiling", "unknown dtype '%s'", v);
            have_dt = 1;
        } else if (sg_argv_opt(argc, argv, &i, "--shape", &v)) {
            if ((why = cli_to_shape(v, &shape, 0)) != NULL)
                return cli_usage_error("tiling", "bad shape '%s': %s", v, why);
            have_shape = 1;
        } else if (strcmp(a, "--json") == 0)
            json = 1;
        else
            return cli_usage_error("tiling", "unknown argument '%s'", a);
    }
    if (!have_dt || !have_shape) return cli_usage_error("tiling", "--dtype and --shape are needed");
    if (soc == NULL && cores < 0 && ub < 0) soc = sg_soc_env_name(); /* as aclInit picks it */
    if ((soc != NULL) == (cores >= 0 || ub >= 0) || (soc == NULL && (cores < 0 || ub < 0)))
        return cli_usage_error("tiling", "give either --soc or both --cores and --ub");
    selugrad_tiling t;
    selugrad_status st;
    if (soc) {
        st = selugrad_tiling_soc(soc, &shape, &shape, dt, dt, &t);
    } else {
        selugrad_platform p = {cores, ub};
        st = selugrad_tiling_platform(&p, &shape, &shape, dt, dt, &t);
    }
    if (st != SELUGRAD_OK) {
        fprintf(stderr, "selugrad tiling: %s\n", selugrad_last_error());
        return st == SELUGRAD_ERR_BAD_ARGUMENT || st == SELUGRAD_ERR_BAD_DTYPE ? CLI_USAGE : 1;
    }
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "totalElements", cli_json_i64(t.total_elements));
        cJSON_AddItemToObject(o, "blockFormer", cli_json_i64(t.block_former));
        cJSON_AddItemToObject(o, "ubFormer", cli_json_i64(t.ub_former));
        cJSON_AddItemToObject(o, "blockDim", cli_json_i64(t.block_dim));
        cJSON_AddItemToObject(o, "workspaceSize", cli_json_i64(t.workspace_size));
        cli_print_json(o);
    } else {
        printf("totalElements %lld\nblockFormer   %lld\nubFormer      %lld\nblockDim      %lld\n"
               "workspaceSize %lld\n",
               (long long)t.total_elements, (long long)t.block_former, (long long)t.ub_former,
               (long long)t.block_dim, (long long)t.workspace_size);
    }
    return 0;
}

static const char cli_infershape_help[] =
    "usage: selugrad infershape --gradients=SHAPE --outputs=SHAPE [--json]\n"
    "InferShape of SeluGrad (docs/contract.md, \"InferShape\"): y copies gradients' shape.\n"
    "Dims may be -1 (unknown); the shape -2 is an unknown rank. Exit status 1 when inference\n"
    "fails.\n"
    "  --json   print {\"status\": \"ok\"|\"failed\", \"shape\": [...] or null, \"message\"}\n";

int cli_cmd_infershape(int argc, char **argv) {
    int pre = cli_begin("infershape", argc, argv, cli_infershape_help);
    if (pre >= 0) return pre;
    selugrad_shape g, o, y;
    const char *why;
    int have_g = 0, have_o = 0, json = 0;
    const char *v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (sg_argv_opt(argc, argv, &i, "--gradients", &v)) {
            if ((why = cli_to_shape(v, &g, 1)) != NULL)
                return cli_usage_error("infershape", "bad --gradients '%s': %s", v, why);
            have_g = 1;
        } else if (sg_argv_opt(argc, argv, &i, "--outputs", &v)) {
            if ((why = cli_to_shape(v, &o, 1)) != NULL)
                return cli_usage_error("infershape", "bad --outputs '%s': %s", v, why);
            have_o = 1;
        } else if (strcmp(a, "--json") == 0)
            json = 1;
        else
            return cli_usage_error("infershape", "unknown argument '%s'", a);
    }
    if (!have_g || !have_o)
        return cli_usage_error("infershape", "--gradients and --outputs are needed");
    selugrad_status st = selugrad_infer_shape(&g, &o, &y);
    if (json) {
        cJSON *obj = cJSON_CreateObject();
        cJSON_AddStringToObject(obj, "status", st == SELUGRAD_OK ? "ok" : "failed");
        if (st == SELUGRAD_OK) {
            cJSON *arr = cJSON_AddArrayToObject(obj, "shape");
            for (size_t i = 0; i < y.rank; i++) cJSON_AddItemToArray(arr, cli_json_i64(y.dims[i]));
        } else {
            cJSON_AddNullToObject(obj, "shape");
            cJSON_AddStringToObject(obj, "message", selugrad_last_error());
        }
        cli_print_json(obj);
    } else if (st == SELUGRAD_OK) {
        char buf[256];
        cli_shape_str(y.rank, y.dims, buf, sizeof buf);
        printf("y: %s\n", buf);
    } else {
        printf("failed: %s\n", selugrad_last_error());
    }
    return st == SELUGRAD_OK ? 0 : 1;
}
