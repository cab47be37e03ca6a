# CANN drop-in pieces, kept apart from the main build description:
# - the one C++ translation unit of the library (the tensor getters' arrays come from new[]).
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
