# The selugrad command: the shipped system-test case files, the tiling vectors (docs/contract.md,
# "Tiling") through `tiling` and `infershape`, a planted mismatch found by `verify`, and usage
# errors (exit 2).
if(TARGET selugrad_cli)
  set(sg_cli_expect ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect.cmake)
  function(sg_cli_test name exit match)
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:selugrad_cli>;${ARGN}"
      -DEXIT=${exit} "-DMATCH=${match}" -P ${sg_cli_expect})
  endfunction()

  # (selu_grad_atk.json runs whole once, in st_atk.cmake, with its tables checked)
  file(GLOB sg_st_files CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/st/*.json)
  list(FILTER sg_st_files EXCLUDE REGEX "/selu_grad_atk\\.json$")
  foreach(f ${sg_st_files})
    get_filename_component(n ${f} NAME_WE)
    sg_cli_test(cli_st_${n} 0 "total +[1-9][0-9]* +[0-9]+ +0\n" st ${f}
      --report=${CMAKE_CURRENT_BINARY_DIR}/st_${n}_report.json)
  endforeach()

  # docs/contract.md, "Tiling": total cores ub dtype -> blockFormer ubFormer blockDim
  set(sg_vectors "16 64 245760 f32 32 8192 1" "24 48 196608 f32 32 6496 1"
    "2048 64 245760 f32 32 8192 64" "2049 64 245760 f32 64 8192 33"
    "1000 48 196608 f16 32 5536 32" "100000 48 196608 s8 2112 5376 48"
    "13023360 64 245760 f32 203520 8192 64")
  set(i 0)
  foreach(v ${sg_vectors})
    string(REPLACE " " ";" v "${v}")
    list(GET v 0 total)
    list(GET v 1 cores)
    list(GET v 2 ub)
    list(GET v 3 dt)
    list(GET v 4 bf)
    list(GET v 5 uf)
    list(GET v 6 bd)
    sg_cli_test(cli_tiling_vector_${i} 0
      "^{\"totalElements\":${total},\"blockFormer\":${bf},\"ubFormer\":${uf},\"blockDim\":${bd},\"workspaceSize\":0}\n$"
      tiling --cores=${cores} --ub=${ub} --dtype=${dt} --shape=${total} --json)
    math(EXPR i "${i} + 1")
  endforeach()
  # a last option without its value is a usage error; an option's value is never taken for --help
  # a last "--key" that no subcommand has is an unknown argument, not one short of its value;
  # cli_value_keys (tools/selugrad/args.c) holds every key the subcommands read with a value
  sg_cli_test(cli_usage_info_unknown_last 2 "selugrad info: unknown argument '--bogus'" info --bogus)
  sg_cli_test(cli_usage_verify_unknown_last 2 "selugrad verify: unknown argument '--bogus'"
    verify --dtype=f32 --bogus)
  sg_cli_test(cli_usage_run_shape_needs_value 2 "selugrad run: --shape needs a value" run --shape)
  add_test(NAME cli_value_keys_listed
    COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/cli_value_keys.sh ${PROJECT_SOURCE_DIR})
  sg_cli_test(cli_usage_st_report_needs_value 2 "--report needs a value"
    st ${CMAKE_CURRENT_SOURCE_DIR}/cli/st_malformed.json --report)
  sg_cli_test(cli_usage_value_is_not_help 2 "bad --seed"
    st --seed -h ${CMAKE_CURRENT_SOURCE_DIR}/cli/st_malformed.json)
  sg_cli_test(cli_help_after_flag 0 "usage: selugrad tiling" tiling --json --help)
  # --isa and --soc in the "--key VALUE" form
  sg_cli_test(cli_run_space_form_isa_soc 0 "summary: 4 cases, 4 passed, 0 failed, 0 skipped"
    run --dtype f32 --shape 4 --isa avx2,scalar --soc Ascend910B,Ascend950)
  # "--key VALUE" is the same as "--key=VALUE"
  sg_cli_test(cli_tiling_space_form 0
    "^{\"totalElements\":2049,\"blockFormer\":64,\"ubFormer\":8192,\"blockDim\":33,\"workspaceSize\":0}\n$"
    tiling --cores 64 --ub 245760 --dtype f32 --shape 2049 --json)
  sg_cli_test(cli_run_space_form 0 "summary: 4 cases, 4 passed, 0 failed, 0 skipped"
    run --dtype f16,s8 --shape 33 --threads 1,2)
  sg_cli_test(cli_usage_space_form_bad_value 2 "unknown dtype 'f99'"
    compute --grad g.npy --out o.npy --dtype f99)
  sg_cli_test(cli_tiling_soc_ascend950 0
    "^{\"totalElements\":13023360,\"blockFormer\":203520,\"ubFormer\":8192,\"blockDim\":64,\"workspaceSize\":0}\n$"
    tiling --soc=Ascend950 --dtype=f32 --shape=13023360 --json)
  # without --soc and --cores/--ub: the SoC of SELUGRAD_SOC (default Ascend910B: 48 cores, 196608)
  sg_cli_test(cli_tiling_default_soc 0
    "^{\"totalElements\":1000,\"blockFormer\":32,\"ubFormer\":5536,\"blockDim\":32,"
    tiling --dtype=f16 --shape=1000 --json)
  set_tests_properties(cli_tiling_default_soc PROPERTIES ENVIRONMENT SELUGRAD_SOC=)
  sg_cli_test(cli_tiling_env_soc 0
    "^{\"totalElements\":13023360,\"blockFormer\":203520,\"ubFormer\":8192,\"blockDim\":64,"
    tiling --dtype=f32 --shape=13023360 --json)
  set_tests_properties(cli_tiling_env_soc PROPERTIES ENVIRONMENT SELUGRAD_SOC=Ascend950)
  # a shape that is not one says why; the empty string is not rank 0 ('scalar' is)
  sg_cli_test(cli_usage_tiling_empty_shape 2 "bad shape '': empty \\(rank 0 is 'scalar'\\)"
    tiling --soc=Ascend950 --dtype=f32 --shape=)
  sg_cli_test(cli_usage_run_empty_shape_in_list 2 "bad shape '': empty"
    run --dtype=f32 --shapes=7,)
  sg_cli_test(cli_usage_infershape_dim_below_minus2 2 "bad --gradients '-3x3': a dim below -2"
    infershape --gradients=-3x3 --outputs=2x3)
  sg_cli_test(cli_usage_infershape_17_dims 2 "more than 16 dims"
    infershape --gradients=1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1 --outputs=-2)
  sg_cli_test(cli_usage_infershape_plus_sign 2 "dims are integers joined by 'x'"
    infershape "--gradients=+2x3" --outputs=2x3)
  sg_cli_test(cli_tiling_empty 0 "\"totalElements\":0,\"blockFormer\":0,\"ubFormer\":0,\"blockDim\":1"
    tiling --soc=Ascend910B --dtype=f16 --shape=4x0x5 --json)
  # int64 fields keep every digit in JSON (above 2^53 a double would not)
  sg_cli_test(cli_tiling_json_int64 0
    "^{\"totalElements\":9007199254740993,\"blockFormer\":3002399751580352,"
    tiling --cores=3 --ub=245760 --dtype=f32 --shape=9007199254740993 --json)
  sg_cli_test(cli_tiling_count_overflow 2 "more than 2\\^63 - 1 elements"
    tiling --cores=1 --ub=245760 --dtype=f32 --shape=2x4611686018427387904)
  sg_cli_test(cli_tiling_blockformer_overflow 2 "does not fit in int64"
    tiling --cores=1 --ub=245760 --dtype=f32 --shape=9223372036854775807)
  sg_cli_test(cli_tiling_negative_cores 2 "bad --cores"
    tiling --soc=Ascend950 --cores=-3 --dtype=f32 --shape=16)

  sg_cli_test(cli_infershape_same 0 "^{\"status\":\"ok\",\"shape\":\\[2,3,4\\]}\n$"
    infershape --gradients=2x3x4 --outputs=2x3x4 --json)
  sg_cli_test(cli_infershape_mismatch 1 "^{\"status\":\"failed\",\"shape\":null"
    infershape --gradients=2x3x4 --outputs=1x3x1 --json)
  sg_cli_test(cli_infershape_dynamic 0 "^{\"status\":\"ok\",\"shape\":\\[-1,3,4\\]}\n$"
    infershape --gradients=-1x3x4 --outputs=2x3x4 --json)
  sg_cli_test(cli_infershape_dynamic_mismatch 1 "\"status\":\"failed\""
    infershape --gradients=-1x3x4 --outputs=2x5x4 --json)
  sg_cli_test(cli_infershape_unknown_rank 1 "\"status\":\"failed\""
    infershape --gradients=-2 --outputs=1x2x3x4x5x6x7x8x9 --json)

  # usage errors exit 2
  sg_cli_test(cli_usage_no_command 2 "")
  sg_cli_test(cli_usage_unknown_command 2 "" frobnicate)
  sg_cli_test(cli_usage_run_bad_dtype 2 "" run --dtype=f99 --shape=4)
  sg_cli_test(cli_usage_run_bad_shape 2 "" run --dtype=f32 --shape=4xq)
  sg_cli_test(cli_usage_run_unknown_option 2 "" run --dtype=f32 --shape=4 --frob)
  sg_cli_test(cli_usage_run_threads_range 2 "bad --threads" run --dtype=f32 --shape=4 --threads=0)
  sg_cli_test(cli_usage_run_threads_empty 2 "bad --threads" run --dtype=f32 --shape=4 --threads=1,,2)
  sg_cli_test(cli_usage_run_range_one 2 "bad --range" run --dtype=f32 --shape=4 --range=1)
  # a list beyond the run's limits says which limit
  sg_cli_test(cli_usage_run_list_too_long 2
    "bad shape list '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17': at most 16 entries, each under 64"
    run --dtype=f32 --shapes=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)
  # a stride whose span overflows is refused before anything is allocated or written
  sg_cli_test(cli_usage_run_strides_overflow 2 "spans more than 2\\^40 elements"
    run --dtype=f32 --shape=5 --strides=4611686018427387904)
  sg_cli_test(cli_usage_compute_o_without_file 2 "-o needs a value"
    compute --grad=g.npy --out=o.npy -o)
  sg_cli_test(cli_usage_run_range_nan 2 "bad --range" run --dtype=f32 --shape=4 --range=0,nan)
  sg_cli_test(cli_usage_run_range_order 2 "bad --range" run --dtype=f32 --shape=4 --range=1,-1)
  sg_cli_test(cli_usage_run_strides_rank 2 "has rank 2" run --dtype=f32 --shape=4 --strides=1x1)
  # strides under which two output elements share an address are a usage error, interleaved
  # ones included (2x2 over 4x4: element (0,2) and (1,1) at 2); u8 runs through the native API
  # row by row, which cannot see it, and would report 9 false mismatches; interleaved strides
  # that give each element its own address (2x3 over 3x2: 0 3 2 5 4 7) run
  sg_cli_test(cli_usage_run_strides_shared 2
    "--strides '2x2' over shape '4x4' puts two elements at one address"
    run --dtype=u8 --shape=4x4 --strides=2x2)
  sg_cli_test(cli_run_strides_interleaved 0 "summary: 2 cases, 2 passed, 0 failed, 0 skipped"
    run --dtype=u8,f32 --shape=3x2 --strides=2x3)
  sg_cli_test(cli_usage_run_strides_negative 2
    "bad --strides '8x-1': a negative stride \\(strides are 0 or more"
    run --dtype=f32 --shape=4x8 --strides=8x-1)
  # st: an unknown --ids entry and a duplicated case id are usage errors, not empty passes
  set(sg_st_one ${CMAKE_CURRENT_SOURCE_DIR}/st/selu_grad_dtypes.json)
  sg_cli_test(cli_usage_st_unknown_id 2 "no case has the id 'nope'" st ${sg_st_one} --ids=nope)
  # ids are unique within a file (the number 7 and the string "7" are one id); ATK numbers every
  # file from 0, so two files may share ids, and a FAIL line then names the file; a file given
  # twice is refused
  sg_cli_test(cli_usage_st_duplicate_id 2 "case id '7' appears twice in .*st_dup_ids.json"
    st ${CMAKE_CURRENT_SOURCE_DIR}/cli/st_dup_ids.json)
  sg_cli_test(cli_usage_st_file_twice 2 "the file .*selu_grad_dtypes.json is given twice"
    st ${sg_st_one} ${sg_st_one})
  # a report that fails as it is written, after the cases ran (a full disk): one case's report
  # fits the stdio buffer, so the failure shows only at fclose
  if(EXISTS /dev/full)
    sg_cli_test(cli_st_report_full 1 "selugrad st: cannot write /dev/full: write failed"
      st ${sg_st_one} --ids=selu_grad_dtype_fp32_00 --report=/dev/full)
  endif()
  sg_cli_test(cli_st_two_atk_files 0 "total +4 +4 +0\n"
    st ${CMAKE_CURRENT_SOURCE_DIR}/st/selu_grad_atk.json
    ${CMAKE_CURRENT_SOURCE_DIR}/st/selu_forward_atk.json --ids=0,72)
  sg_cli_test(cli_st_fail_names_file 1 "FAIL [^\n]*bad_cases.json:wrong_op: "
    st ${CMAKE_CURRENT_SOURCE_DIR}/cli/bad_cases.json ${CMAKE_CURRENT_SOURCE_DIR}/st/selu_grad_empty.json)
  # a file longer than its shape (7 floats for 2x3) is refused, not truncated
  set(sg_seven ${CMAKE_CURRENT_SOURCE_DIR}/data/f32x7.bin)
  sg_cli_test(cli_verify_file_too_long 2 "longer than its shape" verify --dtype=f32 --shape=2x3
    --gradOutput=${sg_seven} --result=${sg_seven} --gradInput=${sg_seven})
  sg_cli_test(cli_usage_tiling_both 2 "" tiling --soc=Ascend950 --cores=4 --ub=1 --dtype=f32 --shape=4)
  sg_cli_test(cli_usage_tiling_soc 2 "" tiling --soc=Ascend999 --dtype=f32 --shape=4)
  sg_cli_test(cli_usage_verify_missing 2 "" verify --grad=g.npy)
  sg_cli_test(cli_usage_st_no_file 2 "" st)
  sg_cli_test(cli_usage_st_bad_file 2 "" st ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect.cmake)
  sg_cli_test(cli_usage_st_missing_file 2 "cannot read: No such file" st /nonexistent/cases.json)
  sg_cli_test(cli_usage_st_report_unwritable 2 "cannot write the report /nonexistent/r.json: "
    st ${sg_st_one} --report=/nonexistent/r.json)
  # the longest .npy header compute can write (rank 16, dims of 2^63 - 1, empty) keeps its shape
  add_test(NAME cli_compute_rank16_header COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:selugrad_cli>
    -DIN=${CMAKE_CURRENT_SOURCE_DIR}/data/empty_rank16.npy
    -DDIR=${CMAKE_CURRENT_BINARY_DIR}/cli_rank16 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/save_shape.cmake)
  # a case whose arrays cannot fit in the memory available is refused before anything is
  # allocated (where each allocation would succeed, the system kills the process partway)
  sg_cli_test(cli_usage_run_memory 2
    "shape '549755813888' needs at least 12288.0 GiB of memory for its arrays \\(6 of 4-byte"
    run --dtype=s8,f32 --shape=549755813888)
  sg_cli_test(cli_usage_run_memory_strided 2
    "shape '1000x1000' needs at least [0-9.]+ GiB of memory for its arrays \\(4 of 4-byte elements, and the strided storage\\)"
    run --op=selu --dtype=f32 --shape=1000x1000 --strides=500000000x1)
  add_test(NAME cli_files_memory COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:selugrad_cli>
    -DDIR=${CMAKE_CURRENT_BINARY_DIR}/cli_files_memory -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/mem_files.cmake)
  # outputs: replaced whole or not at all, never over an input (compute -o, st --report)
  add_test(NAME cli_out_files COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:selugrad_cli>
    -DDIR=${CMAKE_CURRENT_BINARY_DIR}/cli_out_files -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/out_files.cmake)
  # a NaN prints as nan whatever its sign, as Python's repr of selugrad.verify prints it: one
  # fp16 element 0xFE00 as gradOutput, result and gradInput (the model gives 0x7E00)
  set(sg_negnan ${CMAKE_CURRENT_SOURCE_DIR}/data/f16_negnan.bin)
  sg_cli_test(cli_verify_nan_shown_as_python 1
    "\\[0\\] \\(0\\) gradOutput nan result nan expected nan \\(0x7E00\\) got nan \\(0xFE00\\), 0 ulps"
    verify --dtype=f16 --gradOutput=${sg_negnan} --result=${sg_negnan} --gradInput=${sg_negnan})
  set(sg_bytes7 ${CMAKE_CURRENT_SOURCE_DIR}/data/bytes7.bin)
  sg_cli_test(cli_verify_bin_partial_element 2 "7 bytes is not a whole number of 4-byte f32"
    verify --dtype=f32 --grad=${sg_bytes7} --out=${sg_bytes7} --gradInput=${sg_bytes7})
  # aclnn's names: --result is the SELU output; --grad/--out/--result (read as if --result were
  # the result under test) is refused with what to write instead
  sg_cli_test(cli_usage_verify_old_result 2
    "--out and --result both given: --result is aclnn's result .*--gradInput"
    verify --grad=g.npy --out=o.npy --result=y.npy)
  sg_cli_test(cli_usage_verify_result_then_out 2 "--out and --result both given"
    verify --gradOutput=g.npy --result=o.npy --out=y.npy)
  sg_cli_test(cli_usage_verify_no_gradinput 2 "--gradInput \\(the result under test\\) is needed"
    verify --gradOutput=g.npy --result=o.npy)
  # a case file that is an empty array is refused, not "0 cases, 0 failed" with exit 0
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/st_empty_array.json "[]\n")
  sg_cli_test(cli_usage_st_empty_array 2 "st_empty_array.json: holds no cases" st
    ${CMAKE_CURRENT_BINARY_DIR}/st_empty_array.json)
  sg_cli_test(cli_usage_verify_grad_twice 2 "gradOutput is given twice"
    verify --gradOutput=g.npy --grad=g.npy --result=o.npy --gradInput=y.npy)
  sg_cli_test(cli_usage_verify_f64 2 "--f64 is for compute" verify --gradOutput=g.npy
    --result=o.npy --gradInput=y.npy --f64)
  sg_cli_test(cli_usage_compute_gradinput 2 "--gradInput is what compute writes"
    compute --gradOutput=g.npy --result=o.npy --gradInput=y.npy)
  sg_cli_test(cli_usage_run_zero_stride 2 "0 stride on a dim of 16"
    run --dtype=f32 --shape=2x16 --strides=16x0)
  sg_cli_test(cli_help_run 0 "usage: selugrad run" run --help)
  # a file with one good and four bad cases: each bad one is a failure, exit 1
  sg_cli_test(cli_st_bad_cases 1 "FAIL wrong_op: .*FAIL shapes_differ: gradOutput \\(f16 4x2\\) and result \\(f16 2x4\\) differ.*total +5 +1 +4\n"
    st ${CMAKE_CURRENT_SOURCE_DIR}/cli/bad_cases.json)

  # malformed cases (a fractional dim, rank 17, an empty id) fail with their reason, in a (bad) row
  sg_cli_test(cli_st_malformed 1
    "FAIL frac: gradOutput: bad dim in shape.*FAIL rank17: gradOutput: shape has more than 16 dims.*FAIL \\(no id\\): the case needs an id: a non-empty string or a whole number.*\\(bad\\) +3 +0 +3\ntotal +4 +1 +3\n"
    st ${CMAKE_CURRENT_SOURCE_DIR}/cli/st_malformed.json)

  # run: lists as a product, strides, threads, ISA caps (selugrad_set_max_isa, in this process)
  sg_cli_test(cli_run_product 0 "summary: 36 cases, 36 passed, 0 failed"
    run --dtype=f32,f16,bf16,s8,u8,s32 --shapes=2x16x32x16,7,0x3 --threads=1,2)
  # --shape is one tensor's shape everywhere: 4,8,16 is 4x8x16 (one case, its repro line says
  # 4x8x16); a list of shapes is --shapes, and the list form given to --shape is refused
  sg_cli_test(cli_run_shape_commas_one_tensor 0
    "PASS f32 4x8x16 .*--shape=4x8x16 .*summary: 1 cases, 1 passed, 0 failed"
    run --dtype=f32 --shape=4,8,16)
  sg_cli_test(cli_usage_run_shape_list 2
    "--shape '2x16,7' mixes ',' and 'x': --shape is one tensor's shape .*--shapes=2x16,7"
    run --dtype=f32 --shape=2x16,7)
  sg_cli_test(cli_usage_run_shape_and_shapes 2 "give --shape or --shapes, once"
    run --dtype=f32 --shape=7 --shapes=2,3)
  sg_cli_test(cli_run_strided_isa 0 "summary: 8 cases, 8 passed, 0 failed"
    run --dtype=f16,bf16 --shape=3x5x7 --strides=70x14x2 --threads=1,2 --isa=scalar,avx2)
  sg_cli_test(cli_run_isa_sets_cap 0
    "PASS f16 64 api=aclnn kernel=f16_selugrad__scalar .*summary: 1 cases, 1 passed"
    run --dtype=f16 --shape=64 --isa=scalar)
  sg_cli_test(cli_run_soc_skip 0 "SKIP bf16 33 .*summary: 4 cases, 3 passed, 0 failed, 1 skipped"
    run --dtype=f32,bf16 --shape=33 --soc=Ascend910,Ascend950)
  # without --soc the SoC of SELUGRAD_SOC decides the skips; an unknown one is a usage error
  sg_cli_test(cli_run_env_soc_skip 0
    "SKIP bf16 7 .*repro: SELUGRAD_SOC=Ascend310P selugrad run --dtype=bf16 .*summary: 2 cases, 1 passed, 0 failed, 1 skipped"
    run --dtype=bf16,f32 --shape=7)
  set_tests_properties(cli_run_env_soc_skip PROPERTIES ENVIRONMENT SELUGRAD_SOC=Ascend310P)
  sg_cli_test(cli_usage_run_env_soc_unknown 2 "SELUGRAD_SOC=\"Bogus\" is not a known SoC"
    run --dtype=f32 --shape=7)
  set_tests_properties(cli_usage_run_env_soc_unknown PROPERTIES ENVIRONMENT SELUGRAD_SOC=Bogus)
  # --soc applies to the aclnn runtime itself (aclInit with that SoC): an unknown SELUGRAD_SOC
  # in the environment does not matter then
  sg_cli_test(cli_run_soc_overrides_env 0 "summary: 2 cases, 2 passed, 0 failed"
    run --dtype=f32 --shape=7 --soc=Ascend910B,Ascend310P)
  set_tests_properties(cli_run_soc_overrides_env PROPERTIES ENVIRONMENT SELUGRAD_SOC=Bogus)
  # SELUGRAD_NUM_THREADS takes digits only: a sign or a space is warned about and ignored
  foreach(v "+2" " 3" "3 " "0x4")
    string(MAKE_C_IDENTIFIER "${v}" vid)
    sg_cli_test(cli_info_env_threads_${vid} 0 "SELUGRAD_NUM_THREADS=.* is not a whole number" info)
    set_tests_properties(cli_info_env_threads_${vid} PROPERTIES ENVIRONMENT "SELUGRAD_NUM_THREADS=${v}")
  endforeach()
  sg_cli_test(cli_info_env_threads_3 0 "threads: 3\n" info)
  set_tests_properties(cli_info_env_threads_3 PROPERTIES ENVIRONMENT SELUGRAD_NUM_THREADS=3)
  # info: every kernel built, in plain words; no cap unless one is set
  sg_cli_test(cli_info 0 "isa cap: no cap .*\n  f16_selugrad__scalar +runs here\n" info)
  sg_cli_test(cli_info_env_isa_scalar 0
    "isa cap: scalar .*f32_selugrad__scalar +runs here. dispatch picks it for SeluGrad f32\n" info)
  set_tests_properties(cli_info_env_isa_scalar PROPERTIES ENVIRONMENT SELUGRAD_MAX_ISA=scalar)
  # the caches found and the store threshold derived (1.5 x L2 per thread)
  sg_cli_test(cli_info_caches 0
    "\ncaches \\([^)]+\\): L1d [0-9]+ KiB, L2 [1-9][0-9]* KiB.*\nstores: non-temporal from [1-9][0-9]* KiB" info)
  # the thresholds printed are the documented rules' for the L2 printed (1.5 x L2 per thread for
  # streaming stores, 3/4 x L2 for the host hook), on 1, 3 and 64 threads asked (a call runs on
  # at most the CPUs available)
  foreach(t 1 3 64)
    add_test(NAME cli_info_thresholds_${t}t COMMAND ${CMAKE_COMMAND} -E env SELUGRAD_NUM_THREADS=${t}
      ${PROJECT_SOURCE_DIR}/tests/scripts/info_thresholds.sh $<TARGET_FILE:selugrad_cli>)
  endforeach()
  # a level that no longer exists is an unknown name: --isa refuses it, SELUGRAD_MAX_ISA ignores it
  sg_cli_test(cli_usage_run_isa_avx512bf16 2 "unknown isa 'avx512bf16'"
    run --dtype=bf16 --shape=4 --isa=avx512bf16)
  sg_cli_test(cli_info_env_isa_avx512bf16 0
    "SELUGRAD_MAX_ISA=\"avx512bf16\" is not one of scalar, avx2, avx512, avx512fp16, neon, all. ignored"
    info)
  set_tests_properties(cli_info_env_isa_avx512bf16 PROPERTIES ENVIRONMENT SELUGRAD_MAX_ISA=avx512bf16)

  add_executable(sg_cli_plant ${CMAKE_CURRENT_SOURCE_DIR}/cli/plant.c)
  sg_program_warnings(sg_cli_plant)
  foreach(dt f16 f32)
    add_test(NAME cli_verify_planted_${dt} COMMAND ${CMAKE_COMMAND}
      -DCLI=$<TARGET_FILE:selugrad_cli> -DPLANT=$<TARGET_FILE:sg_cli_plant>
      -DDIR=${CMAKE_CURRENT_BINARY_DIR}/verify_${dt} -DDTYPE=${dt}
      -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/verify_plant.cmake)
  endforeach()
  add_test(NAME cli_verify_hints COMMAND ${CMAKE_COMMAND}
    -DCLI=$<TARGET_FILE:selugrad_cli> -DPLANT=$<TARGET_FILE:sg_cli_plant>
    -DDIR=${CMAKE_CURRENT_BINARY_DIR}/verify_hints -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/verify_hints.cmake)
  add_test(NAME cli_progress COMMAND ${CMAKE_COMMAND}
    -DCLI=$<TARGET_FILE:selugrad_cli> -DPLANT=$<TARGET_FILE:sg_cli_plant>
    -DDIR=${CMAKE_CURRENT_BINARY_DIR}/cli_progress -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/progress.cmake)
endif()

# The CLI's judge (the golden model's results, rounding, precision standard, bit comparison) as a
# unit test.
if(TARGET selugrad_cli)
  add_executable(test_cli_golden ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_cli_golden.c
    ${PROJECT_SOURCE_DIR}/tools/selugrad/check.c ${PROJECT_SOURCE_DIR}/tools/selugrad/progress.c
    ${PROJECT_SOURCE_DIR}/tools/selugrad/tensor.c
    ${PROJECT_SOURCE_DIR}/tools/selugrad/args.c)
  target_include_directories(test_cli_golden PRIVATE ${PROJECT_SOURCE_DIR}/tools)
  target_link_libraries(test_cli_golden PRIVATE selugrad_internal selugrad_argv selugrad_golden
                        PkgConfig::CMOCKA m)
  sg_program_warnings(test_cli_golden)
  add_test(NAME test_cli_golden COMMAND test_cli_golden)
  # one ATK case: ids, operator, standard, inputs, value distributions
  pkg_check_modules(SG_TEST_CJSON REQUIRED IMPORTED_TARGET libcjson)
  add_executable(test_st_case ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_st_case.c
    ${PROJECT_SOURCE_DIR}/tools/selugrad/st_case.c ${PROJECT_SOURCE_DIR}/tools/selugrad/tensor.c
    ${PROJECT_SOURCE_DIR}/tools/selugrad/args.c)
  target_include_directories(test_st_case PRIVATE ${PROJECT_SOURCE_DIR}/tools)
  target_link_libraries(test_st_case PRIVATE selugrad_internal selugrad_argv selugrad_golden
                        PkgConfig::SG_TEST_CJSON PkgConfig::CMOCKA m)
  sg_program_warnings(test_st_case)
  add_test(NAME test_st_case COMMAND test_st_case)
endif()
