# CANN drop-in: the tensor getters from C++ (arrays freed with delete[], as CANN's users do).
sg_host_program(acl_getters_cxx acl_getters.cpp "" "")

# CANN's install tree, used as CANN users use CANN: the sample CMakeLists and ops-nn's g++ line
# build and run the ops-nn-style examples (examples/cann) against `--component cann`, installed
# once (cann_tree, a fixture) for the two tests that use it side by side.
if(NOT CMAKE_CROSSCOMPILING)
  foreach(part tree sample lines)
    add_test(NAME cann_layout_${part}
             COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/cann_layout.sh ${part} ${PROJECT_BINARY_DIR}
                     ${PROJECT_SOURCE_DIR} ${CMAKE_CXX_COMPILER} "${sg_aclnn_extra}")
  endforeach()
  set_tests_properties(cann_layout_tree PROPERTIES FIXTURES_SETUP cann_tree)
  set_tests_properties(cann_layout_sample cann_layout_lines PROPERTIES FIXTURES_REQUIRED cann_tree)
endif()

# docs/aclnn.md lists which acl* and aclnn* functions exist and which do not: checked against
# what the shared library exports.
add_test(NAME acl_coverage_doc
         COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/acl_coverage_doc.sh $<TARGET_FILE:selugrad>
                 ${PROJECT_SOURCE_DIR})
