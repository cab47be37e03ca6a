# libselugrad.so exports exactly what the public headers declare with an export macro
# (SELUGRAD_API, CANN's ACL_FUNC_VISIBILITY and ACLNN_API), all named selugrad_*, acl* or aclnn*:
# the library is built with hidden visibility (scripts/check_exports.py, nm -D --defined-only).
set(sg_check_exports ${PROJECT_SOURCE_DIR}/scripts/check_exports.py)
add_test(NAME exports_public_only
  COMMAND ${SG_PYTHON} -S ${sg_check_exports} ${PROJECT_SOURCE_DIR}/include
          $<TARGET_FILE:selugrad> --nm ${CMAKE_NM})
set_tests_properties(exports_public_only PROPERTIES PASS_REGULAR_EXPRESSION
  "exports exactly the [0-9]+ functions the public headers declare")

# The check finds each kind of fault in a fixture library (it prints them only when it exits 1).
add_library(sg_exports_fixture SHARED ${CMAKE_CURRENT_SOURCE_DIR}/data/exports/lib.c)
set_target_properties(sg_exports_fixture PROPERTIES C_VISIBILITY_PRESET default)
add_test(NAME exports_finds_leaks
  COMMAND ${SG_PYTHON} -S ${sg_check_exports} ${CMAKE_CURRENT_SOURCE_DIR}/data/exports/include
          $<TARGET_FILE:sg_exports_fixture> --nm ${CMAKE_NM})
set_tests_properties(exports_finds_leaks PROPERTIES PASS_REGULAR_EXPRESSION
  "declared without an export macro: fixture.h: selugrad_fixture_unmarked\ndeclared for export but not exported: selugrad_fixture_declared [^\n]*\nexported but not declared in the public headers: selugrad_fixture_unmarked\nexported but not declared in the public headers: sg_fixture_leak\nexported name outside selugrad_., acl., aclnn.: sg_fixture_leak")

# docs/api.md has an entry for every function of the native headers (selugrad.h, selugrad_graph.h)
add_test(NAME api_doc_coverage
  COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/api_doc_coverage.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(api_doc_coverage PROPERTIES PASS_REGULAR_EXPRESSION
  "docs/api.md: all [0-9]+ functions of selugrad/selugrad.h and selugrad_graph.h have an entry")

# README.md and docs/*.md: links, anchors, cited sections and README's repository map resolve
add_test(NAME doc_links
  COMMAND ${SG_PYTHON} -S ${PROJECT_SOURCE_DIR}/tests/scripts/doc_links.py ${PROJECT_SOURCE_DIR})
set_tests_properties(doc_links PROPERTIES PASS_REGULAR_EXPRESSION
  "docs: [0-9]+ links, [0-9]+ cited sections and [0-9]+ repository-map paths resolve")
