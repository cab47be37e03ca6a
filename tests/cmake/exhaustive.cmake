# sg_all_pairs16: the 16-bit SIMD kernels against the scalar ones on every (g, o) pair, by hand
# (`build/tests/sg_all_pairs16`, a few minutes); the suite runs 256 evenly spaced rows of each.
add_executable(sg_all_pairs16 ${PROJECT_SOURCE_DIR}/tests/exhaustive/all_pairs16.c)
target_link_libraries(sg_all_pairs16 PRIVATE selugrad_internal)
sg_program_warnings(sg_all_pairs16)
add_test(NAME all_pairs16_sample COMMAND sg_all_pairs16 --rows=256)
if(NOT CMAKE_CROSSCOMPILING) # the check script runs the program itself, without the emulator
  add_test(NAME all_pairs16_bad_arg
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:sg_all_pairs16> -DEXPECT=2 -DARGS=--rows=0
      "-DERR_MATCH=usage: .*--rows=N" -P ${PROJECT_SOURCE_DIR}/bench/check_run.cmake)
endif()
