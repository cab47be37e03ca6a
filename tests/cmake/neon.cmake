# test_neon_variants once more with dispatch capped to scalar: its dispatch case then expects the
# scalar kernels (the kernel checks themselves call the NEON kernels directly either way).
if(TARGET test_neon_variants)
  add_test(NAME test_neon_variants_scalar_cap COMMAND test_neon_variants)
  set_tests_properties(test_neon_variants_scalar_cap PROPERTIES ENVIRONMENT SELUGRAD_MAX_ISA=scalar)
endif()
