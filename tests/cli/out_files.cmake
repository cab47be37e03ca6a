# What the commands write never costs the caller a file: an existing output is replaced only by
# the whole new one (a write that fails, here at a file size limit of 512 bytes, leaves it as it
# was and no temporary file behind), an output that names an input (compute's -o, st's
# --report) is refused before anything runs, and a symbolic link keeps pointing at its file.
#   cmake -DCLI=selugrad -DDIR=dir -P out_files.cmake
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
include(${CMAKE_CURRENT_LIST_DIR}/run_in_dir.cmake)
# 1000 float32 elements of bytes '0' (0x30303030): y.npy is 128 + 4000 bytes
string(REPEAT "0" 4000 zeros)
file(WRITE ${DIR}/g.bin "${zeros}")
file(WRITE ${DIR}/y.npy "keep\n")
set(compute ${CLI} compute --dtype=f32 --gradOutput=g.bin --result=g.bin)
string(JOIN " " compute_sh ${compute})
# (execute_process itself: run() is a macro, whose arguments split at the semicolons)
execute_process(COMMAND sh -c "ulimit -f 1; trap '' XFSZ; exec ${compute_sh} -o y.npy"
  WORKING_DIRECTORY ${DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${DIR}/y.npy kept)
file(GLOB left ${DIR}/y.npy.*)
if(NOT rc EQUAL 2 OR NOT err MATCHES "cannot write y.npy" OR NOT kept STREQUAL "keep\n" OR left)
  message(FATAL_ERROR "a failed write: exit ${rc}, y.npy '${kept}', left ${left}\n${out}${err}")
endif()
# compute's -o naming an input, also by another path
foreach(o g.bin ./g.bin)
  run(${compute} -o ${o})
  file(READ ${DIR}/g.bin g)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "-o ${o} is the gradOutput file" OR NOT g STREQUAL zeros)
    message(FATAL_ERROR "-o ${o}: exit ${rc}\n${out}${err}")
  endif()
endforeach()
run(${CLI} compute --op=selu --dtype=f32 --self=g.bin -o ./g.bin)
file(READ ${DIR}/g.bin g)
if(NOT rc EQUAL 2 OR NOT err MATCHES "-o ./g.bin is the self file" OR NOT g STREQUAL zeros)
  message(FATAL_ERROR "compute --op=selu -o ./g.bin: exit ${rc}\n${out}${err}")
endif()
# st's report naming its case file
set(case "[{\"id\": \"a\", \"aclnn_name\": \"aclnnSeluBackward\", \"inputs\": [
 {\"name\": \"gradOutput\", \"dtype\": \"fp32\", \"shape\": [3], \"range_values\": [-1, 1]},
 {\"name\": \"result\", \"dtype\": \"fp32\", \"shape\": [3], \"range_values\": [-1, 1]}]}]")
file(WRITE ${DIR}/cases.json "${case}")
run(${CLI} st cases.json --report=./cases.json)
file(READ ${DIR}/cases.json c)
if(NOT rc EQUAL 2 OR NOT err MATCHES "the report ./cases.json is the case file cases.json"
   OR NOT c STREQUAL case)
  message(FATAL_ERROR "st --report=./cases.json: exit ${rc}\n${out}${err}")
endif()
# a successful write through a symbolic link replaces the file it names, the link stays
file(CREATE_LINK y.npy ${DIR}/link.npy SYMBOLIC)
run(${compute} -o link.npy)
file(READ ${DIR}/y.npy head LIMIT 6 HEX)
if(NOT rc EQUAL 0 OR NOT IS_SYMLINK ${DIR}/link.npy OR NOT head STREQUAL "934e554d5059")
  message(FATAL_ERROR "-o link.npy: exit ${rc}, y.npy starts ${head}\n${out}${err}")
endif()
# a link to no file: the file it names is created, the link stays (as fopen would)
file(CREATE_LINK new.npy ${DIR}/dangling.npy SYMBOLIC)
run(${compute} -o dangling.npy)
if(NOT rc EQUAL 0 OR NOT IS_SYMLINK ${DIR}/dangling.npy OR NOT EXISTS ${DIR}/new.npy)
  message(FATAL_ERROR "-o dangling.npy: exit ${rc}\n${out}${err}")
endif()
message(STATUS "ok")
