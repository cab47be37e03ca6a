/*
 * The SeluGrad benchmark as a reusable entry point: the standalone program
 * `selugrad_bench` and the CLI's `selugrad bench` subcommand both call it.
 */
#ifndef SELUGRAD_BENCH_BENCH_H
#define SELUGRAD_BENCH_BENCH_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Runs the benchmark with benchdnn-style options (see --help). argv[0] is the program or
 * subcommand name, used in messages. Returns the exit status: 0 done, 1 a run-time failure,
 * 2 bad arguments (a usage message went to stderr).
 */
int selugrad_bench_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* SELUGRAD_BENCH_BENCH_H */
