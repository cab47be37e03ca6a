# run(command args...): runs the command in ${DIR}, leaving its exit status in rc, its stdout in
# out and its stderr in err (a macro, so that they land in the caller's scope). Included by the
# CLI test scripts that run several commands in one directory.
macro(run)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${DIR}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endmacro()
