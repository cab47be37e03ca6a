# test_threads_cap again on one CPU (taskset -c 0): 64 threads asked, every call on the calling
# thread alone, with the golden model's bits.
find_program(SG_TASKSET taskset)
if(SG_TASKSET AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME test_threads_cap_one_cpu COMMAND ${SG_TASKSET} -c 0 $<TARGET_FILE:test_threads_cap>)
endif()
