# `selugrad verify` finds one planted single-bit mismatch in a 1M-element .npy and names it:
# sg_cli_plant writes random inputs, `selugrad compute` the exact result, sg_cli_plant flips one
# bit of one element, and verify must report exactly that element.
#   cmake -DCLI=selugrad -DPLANT=sg_cli_plant -DDIR=workdir -DDTYPE=f16 -P verify_plant.cmake
set(index 654321)
file(MAKE_DIRECTORY ${DIR})
macro(run)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${DIR}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endmacro()
run(${PLANT} inputs ${DTYPE} 1000000 g.npy o.npy)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "plant inputs: ${rc} ${err}")
endif()
run(${CLI} compute --grad=g.npy --out=o.npy --dtype=${DTYPE} -o y.npy)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compute: ${rc} ${err}")
endif()
run(${CLI} verify --grad=g.npy --out=o.npy --result=y.npy --dtype=${DTYPE})
if(NOT rc EQUAL 0 OR NOT out MATCHES "bit-exact: PASS, 0 mismatching elements")
  message(FATAL_ERROR "verify of the exact result: ${rc}\n${out}${err}")
endif()
run(${PLANT} flip y.npy ${index} 0)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "plant flip: ${rc} ${err}")
endif()
run(${CLI} verify --grad=g.npy --out=o.npy --result=y.npy --dtype=${DTYPE})
if(NOT rc EQUAL 1 OR NOT out MATCHES "bit-exact: FAIL, 1 mismatching element\n"
   OR NOT out MATCHES "\n  \\[${index}\\] \\(${index}\\) ")
  message(FATAL_ERROR "verify of the planted result: exit ${rc}\n${out}${err}")
endif()
message(STATUS "${out}")
