# The benchmark (bench/): a smoke run and its handling of bad arguments (exit status 2).
if(TARGET selugrad_bench)
  # its buffer sets: the turn the timed functions share, the cold sets' span
  sg_add_cmocka_test(test_bench_sets ${PROJECT_SOURCE_DIR}/tests/bench/test_bench_sets.c)
  target_link_libraries(test_bench_sets PRIVATE selugrad_bench_lib)
  set(sgb_check ${PROJECT_SOURCE_DIR}/bench/check_run.cmake)
  add_test(NAME bench_smoke
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_bench> -DEXPECT=0 -DROWS=8
      -DCSV=${CMAKE_CURRENT_BINARY_DIR}/bench_smoke.csv
      "-DARGS=--quick;--size=4K,64K;--dtype=f32,f16;--threads=1,2" -P ${sgb_check})
  # Both operators with the compute bound beside the memory bound: check_run.cmake checks every
  # row's compute_gbps is positive, governs names the lower bound and ratio_gov is gbps over it
  add_test(NAME bench_compute
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_bench> -DEXPECT=0 -DROWS=8
      -DCSV=${CMAKE_CURRENT_BINARY_DIR}/bench_compute.csv
      "-DARGS=--quick;--op=selu_grad,selu;--size=4K,64K;--dtype=f32,f16;--threads=2"
      "-DOUT_MATCH=\n# compute_gbps = [^\n]+\n.*\nf32 +4K +2 +[12] auto +f32_selu__[a-z0-9]+ +hot .* [0-9.]+ +(compute|[a-z0-9/-]+) +[0-9.]+\n"
      -P ${sgb_check})
  # "--key VALUE" is the same as "--key=VALUE"
  add_test(NAME bench_space_form
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_bench> -DEXPECT=0 -DROWS=2
      -DCSV=${CMAKE_CURRENT_BINARY_DIR}/bench_space_form.csv
      "-DARGS=--quick;--size;4K;--dtype;f32,f16;--threads;1;--reps;3" -P ${sgb_check})
  # A row capped at an ISA level is measured against a triad of that level at most: a scalar
  # row's bound is the plain C or the SSE2 (x86-64 baseline) triad, never a wider one.
  add_test(NAME bench_bound_cap
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_bench> -DEXPECT=0
      "-DARGS=--quick;--size=4K;--dtype=f32;--threads=1;--isa=scalar"
      "-DOUT_MATCH=\nf32 +4K +1 +1 scalar +f32_selugrad__scalar +hot +[0-9.]+ +[0-9.]+ +[0-9.]+ (plain-c|nt-sse2) "
      -P ${sgb_check})
  # dtype names as the selugrad command takes them (tools/common/sg_argv.c serves both)
  add_test(NAME bench_dtype_names
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_bench> -DEXPECT=0
      "-DARGS=--quick;--size=4K;--dtype=float16,fp32;--threads=1"
      "-DOUT_MATCH=\nf16 +4K +1 .*\nf32 +4K +1 " -P ${sgb_check})
  # threads_used is counted: with 2 threads allowed, the scalar kernel's 64-element call runs on
  # the calling thread alone; its 64K call is split into tasks, which the pool's worker takes
  # part in when it is awake (on a crowded machine it may not be: the caller then runs them all)
  add_test(NAME bench_threads_used
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_bench> -DEXPECT=0
      "-DARGS=--quick;--size=64,64K;--dtype=f32;--threads=2;--isa=scalar"
      "-DOUT_MATCH=\nf32 +64 +2 +1 scalar .*\nf32 +64K +2 +[12] scalar " -P ${sgb_check})
  # a '# onednn' line per dtype says what the onednn_gbps column holds: oneDNN's implementation,
  # or why it did not run (int8 never: oneDNN's eltwise backward has no int8)
  add_test(NAME bench_onednn_note
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_bench> -DEXPECT=0
      "-DARGS=--quick;--size=4K;--dtype=f32,s8;--threads=1"
      "-DOUT_MATCH=\n# onednn f32: [^\n]+\nf32 .*\n# onednn s8: not run \\(oneDNN's eltwise backward takes f32 and bf16 only\\)\ns8 .* 0\\.00 +[0-9.]+ +[a-z0-9/-]+ +[0-9.]+\n"
      -P ${sgb_check})
  # the text output opens with where it ran (the CSV too: check_run.cmake)
  add_test(NAME bench_env
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_bench> -DEXPECT=0
      "-DARGS=--quick;--size=4K;--dtype=f32;--threads=1"
      "-DOUT_MATCH=^# cpu: [^\n]*; vendor [^\n]*, family [0-9]+ [^\n]*\n# isa: this cpu runs scalar[^\n]*\n# caches \\([^)]+\\): L1d [0-9]+ KiB, L2 [1-9][0-9]* KiB[^\n]*\n# threads: rows 1; default [0-9]+[^\n]*\n# library: selugrad [0-9]+\\.[0-9]+\\.[0-9]+\n"
      -P ${sgb_check})
  # --omp: a call alone, after an OpenMP region through the pool and through the hook
  find_package(OpenMP COMPONENTS C)
  if(OpenMP_C_FOUND)
    add_test(NAME bench_omp
      COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_bench> -DEXPECT=0
        -DCSV=${CMAKE_CURRENT_BINARY_DIR}/bench_omp.csv -DROWS=4
        "-DARGS=--quick;--size=64K;--dtype=f32;--threads=2;--omp;--reps=20"
        "-DOUT_MATCH=\n# omp f32 +64K +2 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+\n" -P ${sgb_check})
  endif()
  # --help names every column of the table and the CSV
  add_test(NAME bench_help
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_bench> -DEXPECT=0 -DARGS=--help
      "-DOUT_MATCH=usage:.*Columns of the table and of the CSV:\n  dtype .*\n  threads_used .*\n  loop_gbps +the hand-written branch-free loop .*\n  speedup .*\n  onednn_gbps +oneDNN's eltwise backward .*\n  compute_gbps +the compute bound: .*\n  governs +the lower of bound_gbps and compute_gbps.*\n  ratio_gov +gbps / the governing bound"
      -P ${sgb_check})
  find_program(SGB_GNUPLOT gnuplot)
  if(SGB_GNUPLOT)
    add_test(NAME bench_plot
      COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_bench> -DEXPECT=0
        -DPNG=${CMAKE_CURRENT_BINARY_DIR}/bench_plot.png
        "-DARGS=--quick;--size=4K,16K;--dtype=f32,s8;--threads=1;--reps=3" -P ${sgb_check})
  endif()
  # An argument list refused before anything runs: exit 2, stderr matching match.
  function(sgb_refused name args match)
    add_test(NAME bench_bad_args_${name}
      COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_bench> -DEXPECT=2 "-DARGS=${args}"
        "-DERR_MATCH=${match}" -P ${sgb_check})
  endfunction()
  # Each bad argument: the reason and a pointer to --help on stderr, exit 2.
  set(sgb_bad_args
    "--dtype=f64" "--dtype=" "--dtype=f32,,f16" "--size=0" "--size=4X" "--size=-1"
    "--size=99999999999999999999" "--threads=0" "--threads=1025" "--threads=two" "--isa=sse9"
    "--reps=0" "--csv=" "--plot=a'b.png" "--bogus" "positional" "--quick=1" "--size")
  set(i 0)
  foreach(a ${sgb_bad_args})
    math(EXPR i "${i} + 1")
    sgb_refused(${i} "${a}" ": '.*'\nTry '.* --help'")
  endforeach()
  # An unknown option is named as such, last on the line too (where a known one without its
  # value "needs a value"); a size beyond the limit says the limit
  sgb_refused(unknown_last "--quick;--bogus" ": unknown argument: '--bogus'\nTry '.* --help'")
  sgb_refused(no_value "--quick;--threads" ": needs a value: '--threads'\nTry '.* --help'")
  sgb_refused(size_limit "--size=17G"
    ": bad --size list \\(counts from 1 to 16G, K/M/G suffixes\\): '17G'")
  # A size whose buffers exceed the memory available (16G f32: 768 GiB), before anything is
  # mapped: the system would kill the run partway
  sgb_refused(size_memory "--quick;--size=16G;--dtype=f32"
    ": --size 17179869184 of f32 needs 768.0 GiB for its buffers, more than the [0-9.]+ GiB of memory available")
  # Refused before anything runs: a dtype no --op has (a table of no rows), and output files
  # that could not be written after the run
  sgb_refused(forward_u8 "--op=selu;--dtype=f32,u8"
    ": no --op has this --dtype \\(the forward, selu, has no uint8\\): 'u8'\nTry '.* --help'")
  # a directory that access() calls writable but that takes no new file (Linux's /proc)
  if(EXISTS /proc/self)
    sgb_refused(csv_proc "--quick;--size=4K;--dtype=f32;--csv=/proc/sg_bench_no_such.csv"
      ": cannot write the --csv file \\([^)]+\\): '/proc/sg_bench_no_such.csv'\nTry '.* --help'")
  endif()
  foreach(out csv plot)
    sgb_refused(${out}_dir "--${out}=${CMAKE_CURRENT_BINARY_DIR}/no-such-dir/x.${out}"
      ": cannot write the --${out} file \\(No such file or directory\\): '[^']*/no-such-dir/x.${out}'\nTry '.* --help'")
  endforeach()
endif()
# The instruction-rate probe (bench/isa_rates.c, x86-64 only): every form and every 16-bit SIMD
# kernel gets a number of cycles, or "skipped" with the level this CPU lacks (--quick: every line,
# 1/50 of the loops; the figures themselves are for a full run).
if(TARGET selugrad_isa_rates)
  set(sgr_num "([0-9]+\\.[0-9]+|skipped \\(no [a-z0-9]+ here\\))")
  add_test(NAME isa_rates_smoke
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_isa_rates> -DEXPECT=0 -DARGS=--quick
      "-DOUT_MATCH=clock [0-9.]+ GHz.*\nvpand ymm [^\n]* ${sgr_num}\n.*\nvcvtps2ph xmm, ymm +${sgr_num}\n.*\nF16C floor per 16 elements +${sgr_num}\n.*\nf16_selugrad__avx2 +${sgr_num}\n"
      -P ${PROJECT_SOURCE_DIR}/bench/check_run.cmake)
  add_test(NAME isa_rates_bad_arg
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_isa_rates> -DEXPECT=2 -DARGS=--bogus
      "-DERR_MATCH=unknown argument \"--bogus\"\nusage:" -P ${PROJECT_SOURCE_DIR}/bench/check_run.cmake)
endif()
# The cold-start program: fresh processes, one line each and the summary; a bad argument is exit 2.
if(TARGET selugrad_coldstart)
  add_test(NAME coldstart_smoke
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_coldstart> -DEXPECT=0
      "-DARGS=--procs=3;--first=20;--later=200;--size=4K;--dtype=f16"
      "-DOUT_MATCH=selugrad_backward f16 n=4096 threads=default\nproc first_us later_us ratio\n0 [0-9.]+ [0-9.]+ [0-9.]+\n1 [0-9.]+ [0-9.]+ [0-9.]+\n2 [0-9.]+ [0-9.]+ [0-9.]+\n# first / later: mean [0-9.]+, median [0-9.]+, min [0-9.]+, max [0-9.]+\n"
      -P ${PROJECT_SOURCE_DIR}/bench/check_run.cmake)
  add_test(NAME coldstart_bad_arg
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_coldstart> -DEXPECT=2
      "-DARGS=--procs=0" "-DERR_MATCH=bad argument '--procs=0'"
      -P ${PROJECT_SOURCE_DIR}/bench/check_run.cmake)
endif()
# The cost model's tool chain (scripts/cost_model.py): one kernel's loop traced and given to
# llvm-mca for two CPUs, well under a second; skipped (77) where llvm-mca-19 is missing.
if(TARGET selugrad_loop_trace)
  add_test(NAME loop_trace_unknown_kernel
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:selugrad_loop_trace> -DEXPECT=2 -DARGS=no_such_kernel
      "-DERR_MATCH=no kernel named \"no_such_kernel\"" -P ${PROJECT_SOURCE_DIR}/bench/check_run.cmake)
  if(SG_PYTHON) # tests/CMakeLists.txt
    add_test(NAME cost_model_smoke
      COMMAND ${SG_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/cost_model.py --build ${PROJECT_BINARY_DIR}
        --no-build --no-measure --kernels ^f32_selugrad__avx2$ --cpus znver5,haswell)
    set_tests_properties(cost_model_smoke PROPERTIES SKIP_RETURN_CODE 77
      PASS_REGULAR_EXPRESSION "\\| f32_selugrad__avx2 \\| [0-9]+ \\| - \\| [0-9.]+ \\([0-9]+\\) [A-Za-z0-9/]+ \\| [0-9.]+ \\([0-9]+\\) [A-Za-z0-9/]+ \\|"
      FAIL_REGULAR_EXPRESSION "Traceback")
  endif()
endif()
# bench/targets.py: medians over runs and each target met or not, on fixture CSVs of four runs
# (the forward's rows in three) whose medians, ranges and targets tests/data/targets/expected.md
# gives as computed by hand: one row on 1 thread and an --omp row left out, a port-bound entry
# of this CPU (Zen 5) making a target 0.9 x its ratio, entries of other CPUs and one outside the
# cost model's markers ignored, the forward judged by ratio_gov in cache and ratio from DRAM
if(SG_PYTHON)
  set(sgt_data ${PROJECT_SOURCE_DIR}/tests/data/targets)
  set(sgt_runs ${sgt_data}/run1.csv ${sgt_data}/run2.csv ${sgt_data}/run3.csv ${sgt_data}/run4.csv)
  add_test(NAME bench_targets
    COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/targets_output.sh ${SG_PYTHON}
      ${PROJECT_SOURCE_DIR}/bench/targets.py ${sgt_data}/expected.md --doc ${sgt_data}/dispatch.md
      ${sgt_runs})
  # --cpu names the cost model's CPU: Zen 4's entry then sets s8 avx2 1M to 0.9 x 0.41
  add_test(NAME bench_targets_cpu
    COMMAND ${SG_PYTHON} -S ${PROJECT_SOURCE_DIR}/bench/targets.py --doc ${sgt_data}/dispatch.md
      --cpu "Zen 4" ${sgt_runs})
  set_tests_properties(bench_targets_cpu PROPERTIES PASS_REGULAR_EXPRESSION
    "port bounds of Zen 4 from dispatch.md.*\n- selugrad s8 avx2 1M \\(s8_selugrad__avx2\\): 0\\.540 \\(0\\.440-0\\.600\\) >= 0\\.369 \\(0\\.9 x 0\\.41, the port bound of s8_selugrad__avx2 on Zen 4\\), governs compute: met\n")
  # a CSV without the compute-bound columns, or none at all: the reason and exit status 2
  add_test(NAME bench_targets_old_csv
    COMMAND ${CMAKE_COMMAND} -DBIN=${SG_PYTHON} -DEXPECT=2
      "-DARGS=-S;${PROJECT_SOURCE_DIR}/bench/targets.py;${sgt_data}/old.csv"
      "-DERR_MATCH=old.csv: no column governs, ratio_gov \\(a CSV of an older bench\\?\\)"
      -P ${PROJECT_SOURCE_DIR}/bench/check_run.cmake)
  # a ruled-out entry in a form the script does not know (here a kernel marked "(static)"): an
  # error, not a target silently left as set
  add_test(NAME bench_targets_bad_doc
    COMMAND ${CMAKE_COMMAND} -DBIN=${SG_PYTHON} -DEXPECT=2
      "-DARGS=-S;${PROJECT_SOURCE_DIR}/bench/targets.py;--doc;${sgt_data}/dispatch_bad.md;${sgt_data}/run1.csv"
      "-DERR_MATCH=dispatch_bad.md: a ruled-out entry this script cannot read: - s8_selugrad__avx2 \\(static\\) at 1M"
      -P ${PROJECT_SOURCE_DIR}/bench/check_run.cmake)
  # bench/peers.py: each bad argument is refused with its reason and exit status 2 before
  # anything runs (no traceback, no run with a value the library or torch would refuse)
  set(sgp_bad_args "--sizes=0" "--sizes=abc" "--sizes=" "--sizes=-5" "--sizes=17G"
    "--threads=0" "--threads=1025" "--threads=two" "--rounds=0" "--lib=/no/such/libselugrad.so"
    "--bogus")
  set(i 0)
  foreach(a ${sgp_bad_args})
    math(EXPR i "${i} + 1")
    add_test(NAME bench_peers_bad_args_${i}
      COMMAND ${CMAKE_COMMAND} -DBIN=${SG_PYTHON} -DEXPECT=2
        "-DARGS=-S;${PROJECT_SOURCE_DIR}/bench/peers.py;${a}"
        "-DERR_MATCH=peers.py: error: [^\n]+\n$" -P ${PROJECT_SOURCE_DIR}/bench/check_run.cmake)
  endforeach()
  # A missing peer is skipped with a message: torch hidden (tests/data/peers_no_torch), no C
  # compiler for oneDNN's (or, without libdnnl-dev, no oneDNN header, checked first); the output
  # opens with where it ran. Debian's interpreter has numpy (python3-numpy); without numpy the
  # script cannot run and the test is skipped. Not in sanitizer builds (the
  # script loads the library into Python with ctypes, and an instrumented library needs its
  # sanitizer's runtime loaded first: ASan refuses to start otherwise) nor in cross builds (the
  # host's Python cannot load another architecture's library).
  find_program(SGP_SYSTEM_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
  if(SGP_SYSTEM_PYTHON AND TARGET selugrad AND NOT SELUGRAD_SANITIZE AND NOT CMAKE_CROSSCOMPILING)
    add_test(NAME bench_peers_skip
      COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${PROJECT_SOURCE_DIR}/tests/data/peers_no_torch
        CC=/no/such/cc ${CMAKE_COMMAND} -DBIN=${SGP_SYSTEM_PYTHON} -DEXPECT=0
        "-DARGS=${PROJECT_SOURCE_DIR}/bench/peers.py;--lib;$<TARGET_FILE:selugrad>;--sizes=4K;--threads=2;--rounds=1"
        "-DOUT_MATCH=^# cpu: [^\n]+; vendor [^\n]+, family [^\n]+; cpus available [0-9]+\n# peers: PyTorch skipped: [^\n]+\n# peers: oneDNN skipped: (no C compiler|no /usr/include/oneapi/dnnl/dnnl.h [^\n]+)\n.*\n4K +selugrad +1 +[0-9.]+\n4K +selugrad +2 +[0-9.]+\n4K +no peer ran\n$"
        -P ${PROJECT_SOURCE_DIR}/bench/check_run.cmake)
    set_tests_properties(bench_peers_skip PROPERTIES SKIP_REGULAR_EXPRESSION "numpy is missing")
  endif()
  add_test(NAME bench_targets_no_file
    COMMAND ${CMAKE_COMMAND} -DBIN=${SG_PYTHON} -DEXPECT=2
      "-DARGS=-S;${PROJECT_SOURCE_DIR}/bench/targets.py;${sgt_data}/no_such.csv"
      "-DERR_MATCH=targets.py: cannot read .*no_such.csv: No such file or directory"
      -P ${PROJECT_SOURCE_DIR}/bench/check_run.cmake)
endif()
