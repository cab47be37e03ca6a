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
run(${CLI} compute --gradOutput=g.npy --result=o.npy --dtype=${DTYPE} -o y.npy)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compute: ${rc} ${err}")
endif()
run(${CLI} verify --gradOutput=g.npy --result=o.npy --gradInput=y.npy --dtype=${DTYPE})
if(NOT rc EQUAL 0 OR NOT out MATCHES "bit-exact: PASS, 0 mismatching elements"
   OR NOT out MATCHES "precision: PASS, MERE [0-9.e-]+ \\(< [0-9.e-]+\\), MARE [0-9.e-]+ \\(< ")
  message(FATAL_ERROR "verify of the exact result: ${rc}\n${out}${err}")
endif()
run(${PLANT} flip y.npy ${index} 0)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "plant flip: ${rc} ${err}")
endif()
run(${CLI} verify --gradOutput=g.npy --result=o.npy --gradInput=y.npy --dtype=${DTYPE})
if(NOT rc EQUAL 1 OR NOT out MATCHES "bit-exact: FAIL, 1 mismatching element, largest distance 1 ulp\n"
   OR NOT out MATCHES "\n  \\[${index}\\] \\(${index}\\) ")
  message(FATAL_ERROR "verify of the planted result: exit ${rc}\n${out}${err}")
endif()
# the same result as raw .bin files (the inputs stay .npy; the shape comes from them)
run(${CLI} compute --gradOutput=g.npy --result=o.npy --dtype=${DTYPE} -o y.bin)
run(${CLI} verify --gradOutput=g.npy --result=o.npy --gradInput=y.bin --dtype=${DTYPE})
if(NOT rc EQUAL 0 OR NOT out MATCHES "bit-exact: PASS, 0 mismatching elements")
  message(FATAL_ERROR "verify of a .bin result: ${rc}\n${out}${err}")
endif()
# --show=N lists the first N of many mismatches in index order (more than the old cap of 16);
# above 1000 is a usage error
foreach(k RANGE 1 20)
  run(${PLANT} flip y.npy ${k}000 0)
endforeach()
run(${CLI} verify --gradOutput=g.npy --result=o.npy --gradInput=y.npy --dtype=${DTYPE} --show=20)
if(NOT rc EQUAL 1 OR NOT out MATCHES "bit-exact: FAIL, 21 mismatching elements, largest distance 1 ulp\n"
   OR NOT out MATCHES "\n  \\[1000\\] " OR NOT out MATCHES "\n  \\[20000\\] "
   OR out MATCHES "\\[${index}\\]")
  message(FATAL_ERROR "verify --show=20 of 21 mismatches: exit ${rc}\n${out}${err}")
endif()
# a flipped exponent bit (the lowest: the value halves or doubles) fails the precision standard,
# and the line says which bound
if(DTYPE STREQUAL "f16")
  run(${PLANT} flip y.npy 777 10)
else()
  run(${PLANT} flip y.npy 777 23)
endif()
run(${CLI} verify --gradOutput=g.npy --result=o.npy --gradInput=y.npy --dtype=${DTYPE})
if(NOT rc EQUAL 1 OR NOT out MATCHES "precision: FAIL, .*MARE [0-9.e+-]+ \\(>= [0-9.e-]+\\) at \\[777\\]")
  message(FATAL_ERROR "verify of a far-off element: exit ${rc}\n${out}${err}")
endif()
run(${CLI} verify --gradOutput=g.npy --result=o.npy --gradInput=y.npy --dtype=${DTYPE} --show=1001)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad --show '1001' \\(0 to 1000\\)")
  message(FATAL_ERROR "verify --show=1001: exit ${rc}\n${out}${err}")
endif()
# an output that cannot be written is exit 2 with the reason, like an unreadable input, and a
# --shape that disagrees with the .npy files is refused
run(${CLI} compute --gradOutput=g.npy --result=o.npy --dtype=${DTYPE} -o ${DIR})
if(NOT rc EQUAL 2 OR NOT err MATCHES "cannot create .*: Is a directory")
  message(FATAL_ERROR "compute to a directory: exit ${rc}\n${out}${err}")
endif()
run(${CLI} compute --gradOutput=g.npy --result=o.npy --dtype=${DTYPE} -o y2.npy --shape=3)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--shape differs" OR EXISTS ${DIR}/y2.npy)
  message(FATAL_ERROR "compute with a wrong --shape: exit ${rc}\n${out}${err}")
endif()
run(${CLI} compute --grad=missing.npy --out=o.npy -o y2.npy)
if(NOT rc EQUAL 2 OR NOT err MATCHES "cannot open missing.npy: No such file")
  message(FATAL_ERROR "compute with a missing input: exit ${rc}\n${out}${err}")
endif()
message(STATUS "${out}")
