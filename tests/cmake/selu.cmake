# The SELU forward's tests: its independent golden model (tests/model/selu_golden.c) for the
# test_selu_* programs, and the exponential against float64 exp on a sample of every fp32 x <= 0
# (`build/tests/sg_exp_all` with no argument checks all of them, by hand: about a minute).
add_library(sg_selu_golden STATIC ${CMAKE_CURRENT_SOURCE_DIR}/model/selu_golden.c)
target_link_libraries(sg_selu_golden PUBLIC sg_battery m)
sg_program_warnings(sg_selu_golden)
target_compile_options(sg_selu_golden PRIVATE -Wconversion)
file(GLOB sg_selu_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_selu_*.c)
foreach(src ${sg_selu_tests})
  get_filename_component(name ${src} NAME_WE)
  target_link_libraries(${name} PRIVATE sg_selu_golden)
endforeach()

add_executable(sg_exp_all ${PROJECT_SOURCE_DIR}/tests/exhaustive/exp_all.c)
target_link_libraries(sg_exp_all PRIVATE m)
target_include_directories(sg_exp_all PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/include)
sg_program_warnings(sg_exp_all)
add_test(NAME selu_exp_sample COMMAND sg_exp_all --step=4099)

# ops-nn's forward examples (examples/*.cpp): their whole output, byte for byte.
foreach(ex test_aclnn_selu test_aclnn_inplace_selu)
  if(TARGET ${ex})
    string(REPLACE "test_" "" stem ${ex})
    add_test(NAME ${ex}_output
             COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/aclnn_example_output.sh
                     $<TARGET_FILE:${ex}> ${PROJECT_SOURCE_DIR}/tests/data/${stem}_example.expected)
  endif()
endforeach()
