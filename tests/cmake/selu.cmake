# The SELU forward's tests: its independent golden model (tests/model/selu_golden.c, in the
# selugrad_golden library) for the test_selu_* programs, and the exponential against float64 exp
# on a sample of every fp32 x <= 0 (`build/tests/sg_exp_all` with no argument checks all of them, by hand: about a minute).
file(GLOB sg_selu_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_selu_*.c)
foreach(src ${sg_selu_tests})
  get_filename_component(name ${src} NAME_WE)
  target_link_libraries(${name} PRIVATE selugrad_golden sg_battery)
endforeach()

add_executable(sg_exp_all ${PROJECT_SOURCE_DIR}/tests/exhaustive/exp_all.c)
target_link_libraries(sg_exp_all PRIVATE selugrad_internal m)
sg_program_warnings(sg_exp_all)
add_test(NAME selu_exp_sample COMMAND sg_exp_all --step=4099)

# Every float32 forward kernel against the model on every fp32 bit pattern
# (`build/tests/sg_selu_f32_all`, by hand: a few minutes); the suite runs every 257th block of
# 4096 patterns.
sg_exhaustive_program(sg_selu_f32_all selu_f32_all.c --step=257 --step=0 "usage: .*--step=N")

# ops-nn's forward examples (examples/*.cpp): their whole output, byte for byte. The plain one
# runs aclnnSelu, then aclnnInplaceSelu on the same self (the 8 lines twice), as ops-nn's does.
foreach(pair "test_aclnn_selu;aclnn_selu_then_inplace" "test_aclnn_inplace_selu;aclnn_inplace_selu")
  list(GET pair 0 ex)
  list(GET pair 1 stem)
  if(TARGET ${ex})
    add_test(NAME ${ex}_output
             COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/aclnn_example_output.sh
                     $<TARGET_FILE:${ex}> ${PROJECT_SOURCE_DIR}/tests/data/${stem}_example.expected)
  endif()
endforeach()

# The selugrad command with the forward: run --op=selu through aclnnSelu (contiguous and strided),
# compute and verify with --op=selu on a planted mismatch, and st on ops-nn's real case form
# (tests/st/selu_forward_atk.json, written by scripts/gen_st_selu_atk.py, runs with the other st
# files as cli_st_selu_forward_atk).
if(TARGET selugrad_cli AND TARGET sg_cli_plant)
  sg_cli_test(cli_selu_run 0 "summary: 36 cases, 30 passed, 0 failed, 6 skipped\n" run --op=selu
    --dtype=f32,f16,bf16,s8,s32,u8 --shapes=7,2x16x33,scalar --threads=1,2)
  # strided views (every other element, rows apart) through aclnnSelu, as cli_run_strided_isa
  sg_cli_test(cli_selu_run_strided 0 "summary: 20 cases, 20 passed, 0 failed, 0 skipped\n"
    run --op=selu --dtype=f32,f16,bf16,s8,s32 --shape=3x5x70 --strides=1400x280x2 --threads=1,2
    --isa=scalar,all)
  sg_cli_test(cli_selu_run_bad_op 2 "unknown --op 'selux'" run --op=selux --dtype=f32 --shape=7)
  # a second --op is refused, not one of the two silently winning (which operator runs)
  sg_cli_test(cli_selu_run_op_twice 2 "--op is given twice" run --op=selu --op=selu_grad
    --dtype=f32 --shape=7)
  sg_cli_test(cli_selu_verify_op_twice 2 "--op is given twice" verify --op=selu --op=selux
    --dtype=f32 --self=x.bin --out=y.bin)
  sg_cli_test(cli_selu_verify_op_grad_then_selu 2 "--op is given twice" verify --op=selu_grad
    --op=selu --dtype=f32 --self=x.bin --out=y.bin)
  # a tensor file given twice is refused, as in SeluGrad's verify (the last one would be judged)
  sg_cli_test(cli_selu_verify_self_twice 2 "self is given twice \\(--self/--x\\)" verify
    --op=selu --dtype=f32 --self=x.bin --x=x2.bin --out=y.bin)
  sg_cli_test(cli_selu_verify_out_twice 2 "--out is given twice" verify --op=selu --dtype=f32
    --self=x.bin --out=bad.bin --out=y.bin)
  # compute says what it wrote, as SeluGrad's compute does
  sg_cli_test(cli_selu_compute_wrote 0
    "^selugrad compute: wrote [^\n]*selu_f32x7\\.bin: out, f32, shape 7, 7 elements\n$" compute
    --op=selu --dtype=f32 --self=${PROJECT_SOURCE_DIR}/tests/data/f32x7.bin
    -o ${CMAKE_CURRENT_BINARY_DIR}/selu_f32x7.bin)
  # compute --op=selu --f64: the float64 golden of every forward dtype against the script's own
  # model, bit for bit; verify refuses --f64 rather than ignoring it
  if(SG_PYTHON)
    add_test(NAME cli_selu_compute_f64 COMMAND ${SG_PYTHON} -S
      ${CMAKE_CURRENT_SOURCE_DIR}/cli/selu_f64.py ${CMAKE_CURRENT_BINARY_DIR}/selu_f64
      ${CMAKE_CROSSCOMPILING_EMULATOR} $<TARGET_FILE:selugrad_cli>)
  endif()
  sg_cli_test(cli_selu_verify_f64 2 "--f64 is for compute" verify --op=selu --dtype=f32
    --self=x.bin --out=y.bin --f64)
  foreach(dt f16 f32 s8)
    add_test(NAME cli_selu_verify_planted_${dt} COMMAND ${CMAKE_COMMAND}
      -DCLI=$<TARGET_FILE:selugrad_cli> -DPLANT=$<TARGET_FILE:sg_cli_plant>
      -DDIR=${CMAKE_CURRENT_BINARY_DIR}/selu_plant_${dt} -DDTYPE=${dt}
      -DOP=selu -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/verify_plant.cmake)
  endforeach()
endif()

# The 16-bit roundings with ties away from zero and the exponential of the x86 forward kernels
# against the scalar ones on every fp32 value (`build/tests/sg_f16_away_all`, by hand: about 30 s
# per ISA level); the suite runs every 4099th block. Built with both levels' flags, for the build machine.
if(SG_X86 AND SG_CC_HAS_avx2 AND SG_CC_HAS_avx512)
  add_executable(sg_f16_away_all ${PROJECT_SOURCE_DIR}/tests/exhaustive/f16_away_all.c)
  target_link_libraries(sg_f16_away_all PRIVATE selugrad_internal)
  target_compile_options(sg_f16_away_all PRIVATE ${SG_ISA_avx2} ${SG_ISA_avx512})
  sg_program_warnings(sg_f16_away_all)
  add_test(NAME selu_f16_away_sample COMMAND sg_f16_away_all --step=4099)
endif()
