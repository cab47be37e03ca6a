# Runs one command and checks its exit status and, optionally, its output (stdout, then stderr).
#   cmake -DCMD="prog;arg;..." -DEXIT=N [-DMATCH=regex] [-DWORKDIR=dir] -P expect.cmake
if(NOT DEFINED WORKDIR)
  set(WORKDIR ".")
endif()
execute_process(COMMAND ${CMD} WORKING_DIRECTORY ${WORKDIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXIT}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED MATCH AND NOT out MATCHES "${MATCH}" AND NOT err MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}':\nstdout:\n${out}\nstderr:\n${err}")
endif()
message(STATUS "ok: ${out}")
