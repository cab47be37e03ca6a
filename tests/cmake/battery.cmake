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
