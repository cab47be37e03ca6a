# The test battery: every tests/unit/test_battery_*.c also links the independent golden
# model (tests/model) and the shared driver (tests/battery).
add_library(sg_battery STATIC ${CMAKE_CURRENT_SOURCE_DIR}/battery/harness.c)
target_link_libraries(sg_battery PUBLIC selugrad_internal selugrad_golden m)
target_include_directories(sg_battery PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
sg_program_warnings(sg_battery)
target_compile_options(sg_battery PRIVATE -Wconversion)

file(GLOB sg_battery_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_battery_*.c)
foreach(src ${sg_battery_tests})
  get_filename_component(name ${src} NAME_WE)
  target_link_libraries(${name} PRIVATE sg_battery)
endforeach()

# The levels a CPU may lack and that only the 16-bit kernels use: test_battery_half once more
# restricted to that level (its kernels, dispatch under its cap), Skipped (exit 77) in CTest where
# this CPU lacks it; the plain runs say on their last line which levels they skipped.
if("SG_BUILD_AVX512FP16=1" IN_LIST SG_ISA_DEFS)
  add_test(NAME test_battery_half_avx512fp16 COMMAND test_battery_half --isa=avx512fp16)
  set_tests_properties(test_battery_half_avx512fp16 PROPERTIES SKIP_RETURN_CODE 77)
endif()
