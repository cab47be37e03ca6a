/* The selugrad command: one program, subcommands (docs/cli.md). */
#include <string.h>

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

static const char cli_info_help[] = "usage: selugrad info\n"
                                    "Prints the version, CPU features found, the kernel per dtype, "
                                    "the thread count and the SoC.\n";

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
    printf("\nisa cap: %s\n", sg_isa_name(sg_isa_cap_from_env()));
    static const selugrad_dtype dts[] = {SELUGRAD_FLOAT, SELUGRAD_FLOAT16, SELUGRAD_BF16,
                                         SELUGRAD_INT8,  SELUGRAD_UINT8,   SELUGRAD_INT32};
    for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++)
        printf("kernel %-4s %s\n", selugrad_dtype_name(dts[i]), selugrad_kernel_name(dts[i]));
    printf("threads: %d\n", selugrad_get_num_threads());
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
    printf("\ncase api: %s (u8: %s)\n", cli_exec_api(SELUGRAD_FLOAT), cli_exec_api(SELUGRAD_UINT8));
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
