# The battery (tests/unit/test_battery_*.c) and test_kernel_variants again under every ISA cap
# (SELUGRAD_MAX_ISA), and the battery under 1, 2, 3 and 7 threads (SELUGRAD_NUM_THREADS).
# The targets are those of the unit glob in tests/CMakeLists.txt (target name = file base name).
# Caps and thread counts are run as a sum, not a product, to keep the suite short: the thread
# split does not depend on the kernel.
if(SG_ARM64)
  set(sg_isa_caps scalar neon)
else()
  set(sg_isa_caps scalar avx2 avx512 avx512fp16)
endif()

file(GLOB sg_battery_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_battery_*.c)
set(sg_isa_cap_programs "")
foreach(src ${sg_battery_sources})
  get_filename_component(name ${src} NAME_WE)
  list(APPEND sg_isa_cap_programs ${name})
  foreach(nt 1 2 3 7)
    add_test(NAME ${name}_threads_${nt} COMMAND ${name})
    set_tests_properties(${name}_threads_${nt} PROPERTIES ENVIRONMENT "SELUGRAD_NUM_THREADS=${nt}")
  endforeach()
endforeach()
if(TARGET test_kernel_variants)
  list(APPEND sg_isa_cap_programs test_kernel_variants)
endif()

foreach(name ${sg_isa_cap_programs})
  foreach(cap ${sg_isa_caps})
    add_test(NAME ${name}_isa_${cap} COMMAND ${name})
    set_tests_properties(${name}_isa_${cap} PROPERTIES ENVIRONMENT "SELUGRAD_MAX_ISA=${cap}")
  endforeach()
endforeach()

# SELUGRAD_VERBOSE=1 prints one plan line per call on stderr.
if(TARGET test_spec_values)
  add_test(NAME verbose_plan_line COMMAND test_spec_values)
  set_tests_properties(verbose_plan_line PROPERTIES ENVIRONMENT "SELUGRAD_VERBOSE=1"
    PASS_REGULAR_EXPRESSION "selugrad: dtype=f32 n=7 kernel=f32_selugrad__[a-z0-9]+ threads=1 block=[0-9]+ chunk=[0-9]+ contiguous")
endif()
