# Long commands show progress on stderr, short ones print nothing there (docs/cli.md,
# "Progress"): `compute`, `verify`, `run` and `run --op=selu` on 2^24 int8 elements
# (CLI_PROGRESS_MIN, the cheapest dtype) give a line at each tenth ending in 100%, and on 1000
# elements none.
#   cmake -DCLI=selugrad -DPLANT=sg_cli_plant -DDIR=dir -P progress.cmake
file(MAKE_DIRECTORY ${DIR})
include(${CMAKE_CURRENT_LIST_DIR}/run_in_dir.cmake)
# Runs the command and fails unless it exits 0 with stderr matching want (and stdout matching
# want_out when given).
function(expect what want)
  run(${ARGN})
  if(NOT rc EQUAL 0 OR NOT err MATCHES "${want}" OR (want_out AND NOT out MATCHES "${want_out}"))
    message(FATAL_ERROR "${what} of ${n} elements: exit ${rc}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
endfunction()
foreach(n 16777216 1000)
  run(${PLANT} inputs s8 ${n} g.npy o.npy)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "plant inputs: ${rc} ${err}")
  endif()
  if(n EQUAL 1000)
    foreach(v want_compute want_verify want_run want_fwd)
      set(${v} "^$")
    endforeach()
  else()
    set(want_compute "^selugrad compute: 20% \\(reading gradOutput\\)\n(selugrad compute: [1-9]0% \\([a-z ]+\\)\n)*selugrad compute: 100% \\(writing\\)\n$")
    set(want_verify "^selugrad verify: 20% \\(reading gradOutput\\)\nselugrad verify: 40% \\(reading result\\)\nselugrad verify: 60% \\(reading gradInput\\)\n(selugrad verify: [7-9]0% \\((model|checking)\\)\n)*selugrad verify: 100% \\(checking\\)\n$")
    set(want_run "^selugrad run: 20% \\(drawing gradOutput\\)\n(selugrad run: [1-9]0% \\([a-z ]+\\)\n)*selugrad run: 100% \\(checking\\)\n$")
    # the forward: self drawn, the call, its model, its exact golden, the check
    set(want_fwd "^selugrad run: 20% \\(drawing self\\)\nselugrad run: 40% \\(library call\\)\n(selugrad run: [5-9]0% \\((model|exact golden|checking)\\)\n)*selugrad run: 100% \\(checking\\)\n$")
  endif()
  set(want_out "")
  expect(compute "${want_compute}" ${CLI} compute --gradOutput=g.npy --result=o.npy -o y.npy)
  set(want_out "verdict: PASS")
  expect(verify "${want_verify}" ${CLI} verify --gradOutput=g.npy --result=o.npy --gradInput=y.npy)
  set(want_out "")
  expect(run "${want_run}" ${CLI} run --dtype=s8 --shape=${n})
  expect("run --op=selu" "${want_fwd}" ${CLI} run --op=selu --dtype=s8 --shape=${n})
endforeach()
