# CANN drop-in pieces, kept apart from the main build description (README, "Install as CANN"):
# - the library's one C++ translation unit (the tensor getters' arrays come from new[]);
# - CANN's library names next to libselugrad in every install (SELUGRAD_CANN_NAMES);
# - CANN's install tree as the install component `cann`:
#     cmake --install build --component cann --prefix /usr/local/Ascend/cann
#   gives lib64/ (libselugrad and CANN's names), include/ (acl/, aclnn/, aclnnop/, selugrad/),
#   bin/selugrad and set_env.sh.

target_sources(selugrad_objects PRIVATE ${PROJECT_SOURCE_DIR}/src/tensor/i64_array.cpp)
set_source_files_properties(${PROJECT_SOURCE_DIR}/src/tensor/i64_array.cpp PROPERTIES
  COMPILE_OPTIONS "-fno-exceptions;-fno-rtti;${SG_WARN_STRICT}")

# A program that links the static library with the C driver gets the C++ runtime that object
# needs (operator new[] / delete[]): the C++ compiler's implicit libraries that the C compiler
# does not add (libstdc++ with GCC), for the build tree and for find_package users alike.
set(sg_cxx_runtime ${CMAKE_CXX_IMPLICIT_LINK_LIBRARIES})
if(CMAKE_C_IMPLICIT_LINK_LIBRARIES)
  list(REMOVE_ITEM sg_cxx_runtime ${CMAKE_C_IMPLICIT_LINK_LIBRARIES})
endif()
foreach(lib ${sg_cxx_runtime})
  target_link_libraries(selugrad_static INTERFACE "$<$<NOT:$<LINK_LANGUAGE:CXX>>:${lib}>")
endforeach()

option(SELUGRAD_CANN_NAMES
  "Install CANN's library names (links onto libselugrad) and the operator headers in include/aclnn"
  ON)
# The names CANN host programs link: the runtime (ascendcl, or acl_rt in newer CANN), the aclnn
# base (nnopbase) and the operator libraries (opapi, or opapi_nn and opapi_math in newer CANN).
set(SELUGRAD_CANN_LIBRARIES ascendcl acl_rt nnopbase opapi opapi_nn opapi_math)

# Each name is a symbolic link to libselugrad.so.<major>, the library's SONAME: a program linked
# with any subset of the names records libselugrad.so.<major> and finds every symbol there, and
# a program built against CANN itself (recording libascendcl.so, libnnopbase.so, ...) loads the
# one library once, since the dynamic loader recognises the same file behind each name.
set(sg_soname "libselugrad${CMAKE_SHARED_LIBRARY_SUFFIX}.${PROJECT_VERSION_MAJOR}")
function(sg_install_cann_links libdir)
  set(opts ${ARGN})
  if(IS_ABSOLUTE "${libdir}")
    set(dir "\$ENV{DESTDIR}${libdir}")
  else()
    set(dir "\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${libdir}")
  endif()
  install(CODE "
    foreach(name ${SELUGRAD_CANN_LIBRARIES})
      set(link \"${dir}/lib\${name}${CMAKE_SHARED_LIBRARY_SUFFIX}\")
      message(STATUS \"Installing: \${link} -> ${sg_soname}\")
      file(CREATE_LINK ${sg_soname} \"\${link}\" SYMBOLIC)
    endforeach()" ${opts})
endfunction()

if(SELUGRAD_CANN_NAMES)
  sg_install_cann_links(${CMAKE_INSTALL_LIBDIR})
  # "aclnn_selu_backward.h" found through -I include/aclnn as well as -I include/aclnnop
  install(DIRECTORY include/aclnnop/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/aclnn
          FILES_MATCHING PATTERN "*.h")
endif()

# The component `cann`: CANN's own tree, whatever CMAKE_INSTALL_LIBDIR says.
set(sg_cann EXCLUDE_FROM_ALL COMPONENT cann)
install(TARGETS selugrad selugrad_static LIBRARY DESTINATION lib64 ${sg_cann}
        ARCHIVE DESTINATION lib64 ${sg_cann})
sg_install_cann_links(lib64 ${sg_cann})
install(DIRECTORY include/ DESTINATION include ${sg_cann})
install(DIRECTORY include/aclnnop/ DESTINATION include/aclnn ${sg_cann} FILES_MATCHING PATTERN "*.h")
if(TARGET selugrad_cli)
  install(TARGETS selugrad_cli RUNTIME DESTINATION bin ${sg_cann})
endif()
# set_env.sh names the prefix the tree is installed at, as CANN's does.
install(CODE "
  file(READ \"${PROJECT_SOURCE_DIR}/cmake/set_env.sh.in\" text)
  string(REPLACE \"@SG_CANN_ROOT@\" \"\${CMAKE_INSTALL_PREFIX}\" text \"\${text}\")
  message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/set_env.sh\")
  file(WRITE \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/set_env.sh\" \"\${text}\")" ${sg_cann})
