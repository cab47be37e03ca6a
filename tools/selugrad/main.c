/* The selugrad command: one program, subcommands (docs/cli.md). */
#include <stdio.h>
#include <string.h>

#include "common/dtype.h"
#include "core/cache.h"
#include "core/parallel.h"
#include "isa/cpu.h"
#include "runtime/soc.h"
#include "cli.h"

#if defined(SELUGRAD_HAVE_BENCH)
#include "bench.h"
#endif

static const char cli_help[] =
    "usage: selugrad COMMAND [OPTIONS]   (selugrad COMMAND --help for each)\n"
    "  run         correctness runs over dtype/shape/thread/ISA lists, with repro lines\n"
    "  verify      check a result made elsewhere (.npy/.bin) bit for bit and by precision\n"
    "  compute     write the exact result for given inputs\n"
    "  st          run system-test case files (ops-nn ATK JSON format)\n"
    "  tiling      the NPU tiling for a SoC or a platform\n"
    "  infershape  shape inference of SeluGrad\n"
    "  bench       the benchmark\n"
    "  info        version, CPU features, kernels, threads, SoC\n"
    "Options are --key=VALUE or --key VALUE.\n";

static const char cli_info_help[] =
    "usage: selugrad info\n"
    "Prints the version, the CPU features found, the ISA levels this CPU runs and the cap, every\n"
    "kernel built (whether it runs here, and which one dispatch picks per operator and dtype),\n"
    "the thread count, the CPUs available and the threads a call runs on, the CPU, its caches and\n"
    "the store thresholds derived from them, the SoC and which API the case runner calls.\n";

/* The ISA levels, the cap and every kernel built, in plain words. */
static void cli_info_isa(void) {
    printf("isa levels this CPU runs:");
    for (int l = SELUGRAD_ISA_SCALAR; l <= SELUGRAD_ISA_NEON; l++)
        if (selugrad_isa_supported((selugrad_isa)l))
            printf(" %s", selugrad_isa_name((selugrad_isa)l));
    printf("\n");
    selugrad_isa cap = selugrad_get_max_isa();
    if (cap == SELUGRAD_ISA_ALL)
        printf("isa cap: no cap (dispatch may pick every level this CPU runs)\n");
    else
        printf("isa cap: %s (dispatch picks no level above it)\n", selugrad_isa_name(cap));
    printf("kernels built, per operator and dtype from the most preferred:\n");
    for (size_t i = 0; i < selugrad_kernel_count(); i++) {
        selugrad_kernel_info k;
        if (selugrad_kernel_get(i, &k) != SELUGRAD_OK) continue;
        printf("  %-26s ", k.name);
        if (!k.supported)
            printf("does not run here: this CPU lacks %s\n", selugrad_isa_name(k.isa));
        else if (k.chosen)
            printf("runs here; dispatch picks it for %s %s\n", k.forward ? "SELU" : "SeluGrad",
                   selugrad_dtype_name(k.dtype));
        else
            printf("runs here\n");
    }
}

/* Which API the case runner calls per dtype. */
static void cli_info_case_api(void) {
    printf("run, verify and st call aclnnSeluBackward for");
    for (int i = 0; i < SG_DTYPE_COUNT; i++)
        if (strcmp(cli_exec_api(sg_dtype_list[i]), "aclnn") == 0)
            printf(" %s", selugrad_dtype_name(sg_dtype_list[i]));
    printf(", and selugrad_backward for the dtypes aclnn rejects on every SoC:");
    for (int i = 0; i < SG_DTYPE_COUNT; i++)
        if (strcmp(cli_exec_api(sg_dtype_list[i]), "aclnn") != 0)
            printf(" %s", selugrad_dtype_name(sg_dtype_list[i]));
    printf("\n");
}

int cli_cmd_info(int argc, char **argv) {
    int pre = cli_begin("info", argc, argv, cli_info_help);
    if (pre >= 0) return pre;
    if (argc > 1) return cli_usage_error("info", "unknown argument '%s'", argv[1]);
    const sg_cpu_features *f = sg_cpu_features_get();
    printf("selugrad %s\n", selugrad_version());
    printf("cpu features:");
    const struct {
        const char *name;
        bool on;
    } feats[] = {{"sse2", f->sse2},
                 {"avx", f->avx},
                 {"f16c", f->f16c},
                 {"fma", f->fma},
                 {"avx2", f->avx2},
                 {"avx512f", f->avx512f},
                 {"avx512bw", f->avx512bw},
                 {"avx512vl", f->avx512vl},
                 {"avx512dq", f->avx512dq},
                 {"avx512fp16", f->avx512fp16},
                 {"avx512vbmi", f->avx512vbmi},
                 {"os_avx", f->os_avx},
                 {"os_avx512", f->os_avx512},
                 {"neon", f->neon}};
    for (size_t i = 0; i < sizeof feats / sizeof feats[0]; i++)
        if (feats[i].on) printf(" %s", feats[i].name);
    printf("\n");
    cli_info_isa();
    printf("threads: %d\n", selugrad_get_num_threads());
    unsigned th = sg_threads_call();
    char quota[32] = "none";
    if (sg_cpus_quota() != 0) snprintf(quota, sizeof quota, "%u", sg_cpus_quota());
    printf("cpus: %u available to this process (affinity mask %u, cgroup cpu quota %s); threads "
           "per call on the library's own pool: %u (the threads, at most the cpus); through a "
           "host parallel-for: the threads\n",
           sg_cpus_available(), sg_cpus_affinity(), quota, th);
    const sg_cpu_id *id = sg_cpu_id_get();
    printf("cpu: %s; vendor %s, family %u (0x%x), model %u (0x%x)\n",
           id->model[0] ? id->model : "unknown", id->vendor[0] ? id->vendor : "unknown", id->family,
           id->family, id->model_number, id->model_number);
    const sg_caches *c = sg_caches_get_shared();
    char l2t[16] = "unknown", l3t[16] = "unknown";
    if (c->l2_threads) snprintf(l2t, sizeof l2t, "%u", c->l2_threads);
    if (c->l3_threads) snprintf(l3t, sizeof l3t, "%u", c->l3_threads);
    printf("caches (%s): L1d %zu KiB, L2 %zu KiB, L3 %zu KiB; CPUs sharing one (sysfs "
           "shared_cpu_list): L2 %s, L3 %s\n",
           c->source, c->l1d >> 10, c->l2 >> 10, c->l3 >> 10, l2t, l3t);
    printf("stores: non-temporal from %zu KiB of traffic per call on 1 thread, %zu KiB on %u "
           "(1.5 x L2 per thread)\n",
           sg_stream_bytes(c, 1) >> 10, sg_stream_bytes(c, th) >> 10, th);
    printf("host hook: a call that splits goes to selugrad_set_parallel_for's hook above %zu KiB "
           "of traffic (3/4 x L2) or from %d x its kernel's part_kib; below both it runs on the "
           "calling thread\n",
           (c->l2 - c->l2 / 4) >> 10, SG_HOOK_MIN_COST);
    const char *soc = sg_soc_env_name();
    const sg_soc *p = sg_soc_find(soc);
    if (p)
        printf("soc: %s (%lld vector cores, %lld UB bytes, bf16 %s)\n", soc,
               (long long)p->vector_cores, (long long)p->ub_bytes, p->bf16 ? "yes" : "no");
    else
        printf("soc: %s (unknown: aclInit would fail)\n", soc);
    printf("soc profiles:");
    int n = 0;
    const sg_soc *t = sg_soc_table(&n);
    for (int i = 0; i < n; i++) printf(" %s", t[i].name);
    printf("\n");
    cli_info_case_api();
    return 0;
}

int cli_cmd_bench(int argc, char **argv) {
#if defined(SELUGRAD_HAVE_BENCH)
    char prog[] = "selugrad bench"; /* its usage and messages name the command as typed */
    if (argc > 0) argv[0] = prog;
    return selugrad_bench_main(argc, argv);
#else
    (void)argc, (void)argv;
    fprintf(stderr, "selugrad bench: the benchmark is not built into this selugrad\n");
    return CLI_USAGE;
#endif
}

int main(int argc, char **argv) {
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {{"run", cli_cmd_run},         {"verify", cli_cmd_verify},
                {"compute", cli_cmd_compute}, {"st", cli_cmd_st},
                {"tiling", cli_cmd_tiling},   {"infershape", cli_cmd_infershape},
                {"bench", cli_cmd_bench},     {"info", cli_cmd_info}};
    if (argc < 2) {
        fputs(cli_help, stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0)
        return fputs(cli_help, stdout), 0;
    if (strcmp(argv[1], "--version") == 0) return printf("selugrad %s\n", selugrad_version()), 0;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[1], cmds[i].name) == 0) return cmds[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "selugrad: unknown command '%s'\n", argv[1]);
    fputs(cli_help, stderr);
    return CLI_USAGE;
}
