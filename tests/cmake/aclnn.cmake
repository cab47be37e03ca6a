# aclnn API: the C++ example (compile + run), the C example's exact output, and an
# install + pkg-config build of CANN-style host programs.
# A host program built like a user's (every warning an error under SELUGRAD_WERROR) and run:
# name, source, language standard property and value.
function(sg_host_program name src std_prop std)
  add_executable(${name} ${PROJECT_SOURCE_DIR}/tests/cxx/${src})
  target_link_libraries(${name} PRIVATE selugrad)
  if(std_prop)
    set_target_properties(${name} PROPERTIES ${std_prop} ${std} ${std_prop}_REQUIRED ON)
  endif()
  target_compile_options(${name} PRIVATE -Wall -Wextra -Wpedantic
                         $<$<COMPILE_LANGUAGE:CXX>:-Wshadow> $<$<BOOL:${SELUGRAD_WERROR}>:-Werror>)
  add_test(NAME ${name} COMMAND ${name})
endfunction()
sg_host_program(aclnn_cxx_example aclnn_cxx_example.cpp "" "")
# CANN host-code idioms (self-defined ACLNN_* macros, ACL_* as static const int, contexts,
# aclFloat16 helpers): C++17 and C11.
sg_host_program(cann_compat cann_compat.cpp CXX_STANDARD 17)
sg_host_program(cann_compat_c cann_compat_c.c C_STANDARD 11)
# Every public header, as C and as C++, against the shared library (its exports).
sg_host_program(public_headers_c public_headers.c C_STANDARD 11)
sg_host_program(public_headers_cxx public_headers.cpp CXX_STANDARD 11)

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
  foreach(mode pkgconfig find_package)
    add_test(NAME aclnn_install_${mode}
             COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/aclnn_install.sh ${mode}
                     ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${CMAKE_C_COMPILER}
                     ${CMAKE_CXX_COMPILER} "${sg_aclnn_extra}")
  endforeach()
endif()
