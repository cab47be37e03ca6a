# The ISA cap and the thread count are API calls (selugrad_set_max_isa, selugrad_set_num_threads):
# the battery programs and test_selu_forward run their dispatched calls under every cap this CPU
# runs and 1, 2, 3 and 7 threads inside one process (bt_settings, tests/battery/harness.h), so
# the unit glob registers each of them once. What the environment still decides is the default:
# test_isa_cap checks that the cap starts as SELUGRAD_MAX_ISA says (an unknown name ignored) and
# that selugrad_set_max_isa overrides it.
if(SG_ARM64)
  set(sg_env_caps scalar neon all bogus)
else()
  set(sg_env_caps scalar avx2 all bogus)
endif()
if(TARGET test_isa_cap)
  foreach(cap ${sg_env_caps})
    add_test(NAME test_isa_cap_env_${cap} COMMAND test_isa_cap)
    set_tests_properties(test_isa_cap_env_${cap} PROPERTIES ENVIRONMENT "SELUGRAD_MAX_ISA=${cap}")
  endforeach()
endif()

# test_kernel_variants once per ISA level this build has kernels of, each run testing that
# level's variants (with scalar: also the list, dispatch and the API under every cap): a level this
# CPU lacks shows as Skipped (exit 77), never as Passed.
if(TARGET test_kernel_variants)
  set(sg_levels scalar)
  foreach(def ${SG_ISA_DEFS})
    string(REGEX REPLACE "^SG_BUILD_([A-Z0-9]+)=1$" "\\1" level "${def}")
    string(TOLOWER "${level}" level)
    list(APPEND sg_levels ${level})
  endforeach()
  foreach(level ${sg_levels})
    add_test(NAME test_kernel_variants_${level} COMMAND test_kernel_variants --isa=${level})
    set_tests_properties(test_kernel_variants_${level} PROPERTIES SKIP_RETURN_CODE 77)
  endforeach()
endif()

# SELUGRAD_VERBOSE=1 prints one plan line per call on stderr.
if(TARGET test_spec_values)
  add_test(NAME verbose_plan_line COMMAND test_spec_values)
  set_tests_properties(verbose_plan_line PROPERTIES ENVIRONMENT "SELUGRAD_VERBOSE=1"
    PASS_REGULAR_EXPRESSION "selugrad: dtype=f32 n=7 kernel=f32_selugrad__[a-z0-9]+ threads=1 block=[0-9]+ chunk=[0-9]+ contiguous")
endif()
