# No dependency cycle between the files or the folders of src/ (scripts/check_cycles.py): by
# includes, and by the symbols the library's objects use from each other.
set(sg_check_cycles ${PROJECT_SOURCE_DIR}/scripts/check_cycles.py)
add_test(NAME layers_no_cycle
  COMMAND ${SG_PYTHON} -S ${sg_check_cycles} ${PROJECT_SOURCE_DIR}/src --nm ${CMAKE_NM}
          --objects $<TARGET_OBJECTS:selugrad_objects>)
set_tests_properties(layers_no_cycle PROPERTIES PASS_REGULAR_EXPRESSION "^no cycle among")

# The check finds a cycle of includes, and one that only the objects show (it prints "cycle
# between" only when it exits with 1).
add_test(NAME layers_finds_include_cycle
  COMMAND ${SG_PYTHON} -S ${sg_check_cycles} ${CMAKE_CURRENT_SOURCE_DIR}/data/cycles/include)
set_tests_properties(layers_finds_include_cycle PROPERTIES PASS_REGULAR_EXPRESSION
  "cycle between files: a/x -> b/y -> a/x.*cycle between folders: a -> b -> a")
add_library(sg_cycle_fixture OBJECT ${CMAKE_CURRENT_SOURCE_DIR}/data/cycles/link/p/one.c
                                    ${CMAKE_CURRENT_SOURCE_DIR}/data/cycles/link/q/two.c)
add_test(NAME layers_finds_link_cycle
  COMMAND ${SG_PYTHON} -S ${sg_check_cycles} ${CMAKE_CURRENT_SOURCE_DIR}/data/cycles/link
          --nm ${CMAKE_NM} --objects $<TARGET_OBJECTS:sg_cycle_fixture>)
set_tests_properties(layers_finds_link_cycle PROPERTIES PASS_REGULAR_EXPRESSION
  "cycle between files: p/one -> q/two -> p/one\n  p/one -> q/two: uses sg_fixture_two")
