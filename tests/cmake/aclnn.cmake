# aclnn API (issue 3): the C++ example (compile + run), the C example's exact output, and an
# install + pkg-config build of CANN-style host programs.
add_executable(aclnn_cxx_example ${PROJECT_SOURCE_DIR}/tests/cxx/aclnn_cxx_example.cpp)
target_link_libraries(aclnn_cxx_example PRIVATE selugrad)
target_compile_options(aclnn_cxx_example PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                       $<$<BOOL:${SELUGRAD_WERROR}>:-Werror>)
add_test(NAME aclnn_cxx_example COMMAND aclnn_cxx_example)

# CANN host-code idioms (self-defined ACLNN_* macros, ACL_* as static const int, contexts,
# aclFloat16 helpers) compile with every warning as errors and run: C++17 and C11.
add_executable(cann_compat ${PROJECT_SOURCE_DIR}/tests/cxx/cann_compat.cpp)
target_link_libraries(cann_compat PRIVATE selugrad)
set_target_properties(cann_compat PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON)
target_compile_options(cann_compat PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                       $<$<BOOL:${SELUGRAD_WERROR}>:-Werror>)
add_test(NAME cann_compat COMMAND cann_compat)
add_executable(cann_compat_c ${PROJECT_SOURCE_DIR}/tests/cxx/cann_compat_c.c)
target_link_libraries(cann_compat_c PRIVATE selugrad)
set_target_properties(cann_compat_c PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
target_compile_options(cann_compat_c PRIVATE -Wall -Wextra -Wpedantic
                       $<$<BOOL:${SELUGRAD_WERROR}>:-Werror>)
add_test(NAME cann_compat_c COMMAND cann_compat_c)

if(TARGET test_aclnn_selu_grad)
  add_test(NAME aclnn_example_output
           COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/aclnn_example_output.sh
                   $<TARGET_FILE:test_aclnn_selu_grad>
                   ${PROJECT_SOURCE_DIR}/tests/data/aclnn_example.expected)
endif()

# Sanitizer builds install an instrumented library: the programs need the same runtime.
set(sg_aclnn_extra "")
if(SELUGRAD_SANITIZE)
  set(sg_aclnn_extra "-fsanitize=${SELUGRAD_SANITIZE}")
endif()
# The programs it builds run on the build machine: not when cross compiling.
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME aclnn_install_pkgconfig
           COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/aclnn_install.sh ${PROJECT_BINARY_DIR}
                   ${PROJECT_SOURCE_DIR} ${CMAKE_C_COMPILER} ${CMAKE_CXX_COMPILER}
                   "${sg_aclnn_extra}")
endif()
