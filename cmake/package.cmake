# Packaging: the selugrad command's man page, and a Debian package made from the build tree with
#   cd build && cpack -G DEB        # selugrad_<version>_<arch>.deb
# holding what `cmake --install` installs under /usr: the shared and static libraries (with
# CANN's library names), the headers, pkg-config and CMake files, bin/selugrad and its man page.
# CI installs it, builds a consumer against it and removes it (scripts/deb_check.sh).

if(TARGET selugrad_cli)
  # gzip -n: Debian's compressed man page, the same bytes on every build
  set(sg_man ${CMAKE_CURRENT_BINARY_DIR}/selugrad.1.gz)
  add_custom_command(OUTPUT ${sg_man}
    COMMAND sh -c "gzip -9 -n -c '${PROJECT_SOURCE_DIR}/tools/selugrad/selugrad.1' > '${sg_man}'"
    DEPENDS ${PROJECT_SOURCE_DIR}/tools/selugrad/selugrad.1 VERBATIM)
  add_custom_target(selugrad_man ALL DEPENDS ${sg_man})
  install(FILES ${sg_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

set(SELUGRAD_DEB_MAINTAINER "selugrad developers" CACHE STRING
  "The Maintainer field of the Debian package")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME selugrad)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${SELUGRAD_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Huawei CANN's SeluGrad operator (aclnnSeluBackward) on CPUs, bit for bit")
# The long description (CPack indents it under the summary).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "The SeluGrad operator of CANN's ops-nn for ordinary CPUs, with the results of the NPU
kernel for float32, float16, bfloat16, int8, uint8 and int32, and CANN's aclnn API, headers
and library names (libascendcl, libacl_rt, libnnopbase, libopapi, libopapi_nn,
libopapi_math), so CANN host programs build and run unchanged. Also the native C API,
pkg-config and CMake files, and the selugrad command (run, verify, compute, st, tiling,
infershape, bench, info).")
# Depends from dpkg-shlibdeps (libc6, libstdc++6, libcjson1, ...); a shlibs file and the
# ldconfig trigger for the library.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
include(CPack)
