# `selugrad verify --op=selu` finds one planted single-bit mismatch in a 1M-element .npy: sg_cli_plant
# writes random inputs (the first is x), `selugrad compute --op=selu` the exact forward, sg_cli_plant
# flips one bit of one element, and verify must report exactly that element.
#   cmake -DCLI=selugrad -DPLANT=sg_cli_plant -DDIR=workdir -DDTYPE=f16 -P verify_plant_selu.cmake
set(index 654321)
file(MAKE_DIRECTORY ${DIR})
macro(run)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${DIR}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endmacro()
run(${PLANT} inputs ${DTYPE} 1000000 x.npy unused.npy)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "plant inputs: ${rc} ${err}")
endif()
run(${CLI} compute --op=selu --self=x.npy --dtype=${DTYPE} -o y.npy)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compute: ${rc} ${err}")
endif()
run(${CLI} verify --op=selu --self=x.npy --out=y.npy --dtype=${DTYPE})
if(NOT rc EQUAL 0 OR NOT out MATCHES "bit-exact: PASS, 0 mismatching elements"
   OR NOT out MATCHES "precision: PASS")
  message(FATAL_ERROR "verify of the exact result: ${rc}\n${out}${err}")
endif()
run(${PLANT} flip y.npy ${index} 0)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "plant flip: ${rc} ${err}")
endif()
run(${CLI} verify --op=selu --self=x.npy --out=y.npy --dtype=${DTYPE})
if(NOT rc EQUAL 1 OR NOT out MATCHES "bit-exact: FAIL, 1 mismatching element\n"
   OR NOT out MATCHES "\n  \\[${index}\\] x ")
  message(FATAL_ERROR "verify of the planted result: ${rc}\n${out}${err}")
endif()
message(STATUS "ok: ${out}")
