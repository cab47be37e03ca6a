# verify and compute refuse, before reading, input files whose arrays cannot fit in the memory
# available (each allocation would succeed and the system kill the process partway): a sparse
# file of 1 TiB read as int8.
#   cmake -DCLI=selugrad -DDIR=dir -P mem_files.cmake
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
include(${CMAKE_CURRENT_LIST_DIR}/run_in_dir.cmake)
run(truncate -s 1T big.bin)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "truncate -s 1T: exit ${rc}\n${err}")
endif()
set(cases  # each command's arguments joined by |, then the GiB it needs
  "verify|--dtype=s8|--gradOutput=big.bin|--result=big.bin|--gradInput=big.bin" 4096
  "compute|--dtype=s8|--gradOutput=big.bin|--result=big.bin|-o|y.npy" 3072
  "compute|--dtype=s8|--gradOutput=big.bin|--result=big.bin|-o|y.npy|--f64" 5120
  "compute|--op=selu|--dtype=s8|--self=big.bin|-o|y.npy" 2048
  "verify|--op=selu|--dtype=s8|--self=big.bin|--out=big.bin" 4096)
list(LENGTH cases n)
math(EXPR last "${n} - 1")
foreach(i RANGE 0 ${last} 2)
  list(GET cases ${i} args)
  math(EXPR j "${i} + 1")
  list(GET cases ${j} gib)
  string(REPLACE "|" " " shown "${args}")
  string(REPLACE "|" ";" args "${args}")
  execute_process(COMMAND ${CLI} ${args} WORKING_DIRECTORY ${DIR}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "big.bin holds 1024.0 GiB: .* needs at least ${gib}.0 GiB of memory, more than the [0-9.]+ GiB available")
    file(REMOVE ${DIR}/big.bin)
    message(FATAL_ERROR "${shown}: exit ${rc}\n${out}${err}")
  endif()
endforeach()
file(REMOVE ${DIR}/big.bin)
if(EXISTS ${DIR}/y.npy)
  message(FATAL_ERROR "y.npy was written")
endif()
message(STATUS "ok")
