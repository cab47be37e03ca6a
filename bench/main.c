/* The standalone benchmark program; the CLI's `selugrad bench` calls the same entry point. */
#include "bench/bench.h"

int main(int argc, char **argv) {
    return selugrad_bench_main(argc, argv);
}
