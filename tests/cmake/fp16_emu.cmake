# The AVX512-FP16 kernels (src/kernels/avx512fp16) on CPUs without AVX512-FP16: their source,
# unchanged, compiled once more with the AVX-512 flags but not -mavx512fp16, with
# tests/emu/fp16_emu.h force-included (it emulates the FP16 intrinsics they call) and their names
# given the suffix _emu (the library's own objects keep theirs), into test_fp16_emu. x86-64 only;
# Skipped (exit 77) on a CPU without AVX-512F/BW/VL/DQ/VBMI.
if(SG_X86)
  set(sg_emu_flags -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512vbmi)
  string(REPLACE ";" " " sg_emu_flags_str "${sg_emu_flags}")
  check_c_compiler_flag("${sg_emu_flags_str}" SG_CC_HAS_fp16_emu)
endif()
if(SG_X86 AND SG_CC_HAS_fp16_emu)
  # Every file <tag>_avx512fp16.c, its kernel sg_<tag>_selugrad__avx512fp16 renamed; the test
  # takes the kernels from the list (src/kernels/selugrad.inc).
  file(GLOB sg_emu_kernels CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/kernels/avx512fp16/*.c)
  set(sg_emu_renames "")
  foreach(f ${sg_emu_kernels})
    get_filename_component(tag ${f} NAME_WE)
    string(REGEX REPLACE "_avx512fp16$" "" tag ${tag})
    list(APPEND sg_emu_renames sg_${tag}_selugrad__avx512fp16=sg_${tag}_selugrad__avx512fp16_emu)
  endforeach()
  # Source properties are per directory: the library's -mavx512fp16 on these files (set in the
  # top directory) does not apply here, nor this -include there.
  set_source_files_properties(${sg_emu_kernels} PROPERTIES
    COMPILE_OPTIONS "-include;${CMAKE_CURRENT_SOURCE_DIR}/emu/fp16_emu.h")
  add_library(sg_fp16_emu OBJECT ${sg_emu_kernels} ${CMAKE_CURRENT_SOURCE_DIR}/emu/fp16_emu_ops.c)
  target_compile_options(sg_fp16_emu PRIVATE ${sg_emu_flags})
  target_compile_definitions(sg_fp16_emu PRIVATE ${sg_emu_renames})
  target_link_libraries(sg_fp16_emu PRIVATE selugrad_internal)
  sg_program_warnings(sg_fp16_emu)
  sg_add_cmocka_test(test_fp16_emu ${CMAKE_CURRENT_SOURCE_DIR}/emu/test_fp16_emu.c
    $<TARGET_OBJECTS:sg_fp16_emu>)
  set_tests_properties(test_fp16_emu PROPERTIES SKIP_RETURN_CODE 77)
endif()

# What the emulation lacks fails to compile, saying why: a compare predicate, a rounding, an
# intrinsic (tests/emu/refused.c; the output must match, whatever the exit status).
if(SG_X86 AND SG_CC_HAS_fp16_emu)
  set(sg_refused_1 "only _CMP_LT_OQ and _CMP_UNORD_Q are emulated")
  set(sg_refused_2 "only round to nearest even is emulated")
  set(sg_refused_3 "_mm512_sub_ph")
  foreach(i 1 2 3)
    add_test(NAME fp16_emu_refused_${i}
      COMMAND ${CMAKE_C_COMPILER} -std=c11 -fsyntax-only -Wall -Werror ${sg_emu_flags}
        -include ${CMAKE_CURRENT_SOURCE_DIR}/emu/fp16_emu.h -DSGE_REFUSED=${i}
        ${CMAKE_CURRENT_SOURCE_DIR}/emu/refused.c)
    set_tests_properties(fp16_emu_refused_${i} PROPERTIES
      PASS_REGULAR_EXPRESSION "error[^\n]*${sg_refused_${i}}")
  endforeach()
endif()

# sg_fp16_emu_all: the emulated add and multiply, and the emulated float16 kernel against the
# scalar one, on every pair, by hand (`build/tests/sg_fp16_emu_all`, a few minutes); the suite
# runs 64 evenly spaced rows.
if(TARGET sg_fp16_emu)
  sg_exhaustive_program(sg_fp16_emu_all fp16_emu_all.c --rows=64 --rows=0 "usage: .*--rows=N"
    sg_fp16_emu selugrad_golden)
  set_tests_properties(fp16_emu_all_sample PROPERTIES SKIP_RETURN_CODE 77)
endif()
