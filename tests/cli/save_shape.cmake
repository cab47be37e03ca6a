# `selugrad compute` writes the inputs' shape into its .npy header however long the shape's text:
# an empty rank-16 float32 tensor whose other dims are 2^63 - 1 (the longest header, 336
# characters of dims) must come back with that shape, for the backward, its --f64 golden and
# the forward, so that verify accepts the written file beside the inputs.
#   cmake -DCLI=selugrad -DIN=empty_rank16.npy -DDIR=dir -P save_shape.cmake
file(MAKE_DIRECTORY ${DIR})
include(${CMAKE_CURRENT_LIST_DIR}/run_in_dir.cmake)
run(${CLI} compute --gradOutput=${IN} --result=${IN} -o y.npy)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compute: exit ${rc}\n${out}${err}")
endif()
run(${CLI} verify --gradOutput=${IN} --result=${IN} --gradInput=y.npy)
if(NOT rc EQUAL 0 OR NOT out MATCHES "verdict: PASS")
  message(FATAL_ERROR "verify of the written file: exit ${rc}\n${out}${err}")
endif()
run(${CLI} compute --op=selu --self=${IN} -o x.npy)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compute --op=selu: exit ${rc}\n${out}${err}")
endif()
run(${CLI} verify --op=selu --self=${IN} --out=x.npy)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "verify --op=selu of the written file: exit ${rc}\n${out}${err}")
endif()
# the float64 golden: the same header with '<f8'
run(${CLI} compute --gradOutput=${IN} --result=${IN} -o g64.npy --f64)
file(READ ${IN} want HEX)
file(READ ${DIR}/g64.npy got HEX)
string(REPLACE "3c6634" "3c6638" want "${want}") # '<f4' -> '<f8'
if(NOT rc EQUAL 0 OR NOT got STREQUAL want)
  message(FATAL_ERROR "compute --f64: exit ${rc}, header\n${got}\nexpected\n${want}\n${err}")
endif()
message(STATUS "ok")
