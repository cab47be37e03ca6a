# `selugrad verify`'s verdict line, ulp distances and hints on fabricated f16 dumps (1000
# elements): sg_cli_plant writes the inputs, `selugrad compute` the exact result, and each case
# corrupts or mislabels the dumps the way a user might.
#   cmake -DCLI=selugrad -DPLANT=sg_cli_plant -DDIR=workdir -P verify_hints.cmake
file(MAKE_DIRECTORY ${DIR})
include(${CMAKE_CURRENT_LIST_DIR}/run_in_dir.cmake)
function(expect code what)
  if(NOT rc EQUAL ${code})
    message(FATAL_ERROR "${what}: exit ${rc}, expected ${code}\n${out}${err}")
  endif()
  foreach(re ${ARGN})
    if(NOT out MATCHES "${re}")
      message(FATAL_ERROR "${what}: output does not match '${re}'\n${out}${err}")
    endif()
  endforeach()
endfunction()
run(${PLANT} inputs f16 1000 g.npy o.npy)
expect(0 "plant inputs")
run(${CLI} compute --gradOutput=g.npy --result=o.npy -o y.npy)
expect(0 "compute" "^selugrad compute: wrote y.npy: gradInput, f16, shape 1000, 1000 elements\n$")
run(${CLI} verify --gradOutput=g.npy --result=o.npy --gradInput=y.npy)
expect(0 "exact result" "^selugrad verify: f16, shape 1000, 1000 elements\n"
  "\nverdict: PASS: bit-identical to the NPU kernel's result\n$")
if(out MATCHES "hint:")
  message(FATAL_ERROR "a hint for the exact result\n${out}")
endif()

# one element 1 ulp off (its lowest bit flipped), one 2 ulps off (the second bit)
file(COPY_FILE ${DIR}/y.npy ${DIR}/y1.npy)
run(${PLANT} flip y1.npy 7 0)
run(${PLANT} flip y1.npy 9 1)
run(${CLI} verify --gradOutput=g.npy --result=o.npy --gradInput=y1.npy --show=1)
expect(1 "two elements off"
  "\nbit-exact: FAIL, 2 mismatching elements, largest distance 2 ulps\n"
  "\n  \\[7\\] \\(7\\) gradOutput [^\n]* got [^\n]*, 1 ulp\n  \\.\\.\\. 1 more\n"
  "\nverdict: FAIL: 2 of 1000 elements are not the NPU kernel's bits \\(largest distance 2 ulps\\); the precision standard passes\n$")
if(out MATCHES "hint:")
  message(FATAL_ERROR "a hint for two corrupted elements\n${out}")
endif()

# the files given to the wrong options: result and gradInput swapped, gradOutput and result swapped
run(${CLI} verify --gradOutput=g.npy --result=y.npy --gradInput=o.npy --show=0)
expect(1 "result and gradInput swapped"
  "\nhint: 1000 of 1000 elements match with result and gradInput exchanged\n"
  "\nverdict: FAIL: 1000 of 1000 elements are not the NPU kernel's bits")
run(${CLI} verify --gradOutput=o.npy --result=g.npy --gradInput=y.npy --show=0)
expect(1 "gradOutput and result swapped"
  "\nhint: 1000 of 1000 elements match with gradOutput and result exchanged\n"
  "\nverdict: FAIL: 1000 of 1000 elements are not the NPU kernel's bits")

# float16 dumps saved as uint16 .npy read as bfloat16 without --dtype; --dtype=f16 reads them right
foreach(f g o y)
  file(COPY_FILE ${DIR}/${f}.npy ${DIR}/${f}u.npy)
  run(${PLANT} retag ${f}u.npy)
  expect(0 "retag ${f}")
endforeach()
run(${CLI} verify --gradOutput=gu.npy --result=ou.npy --gradInput=yu.npy --show=0)
expect(1 "f16 read as bf16" "^selugrad verify: bf16, "
  "\nhint: 1000 of 1000 elements match with the data read as float16 \\(--dtype=f16\\)\n")
run(${CLI} verify --gradOutput=gu.npy --result=ou.npy --gradInput=yu.npy --dtype=f16)
expect(0 "uint16 dumps with --dtype=f16" "\nverdict: PASS: ")
message(STATUS "${out}")
