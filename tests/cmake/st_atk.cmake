# `selugrad st` on ATK's own form (tests/st/selu_grad_atk.json, 201 cases, run whole with a report
# as cli_st_atk_tables, the other files of tests/st being cli.cmake's): integer ids in --ids and in the duplicate check, the count on stderr when it
# is not a terminal, the tables of standards and dtypes, and malformed ATK-form cases.
if(TARGET selugrad_cli)
  set(sg_atk ${CMAKE_CURRENT_SOURCE_DIR}/st/selu_grad_atk.json)
  sg_cli_test(cli_st_atk_ids 0 "total +2 +2 +0\n" st ${sg_atk} --ids=0,200)
  sg_cli_test(cli_usage_st_duplicate_int_id 2 "case id '7' appears twice"
    st ${CMAKE_CURRENT_SOURCE_DIR}/cli/st_dup_ids.json)
  sg_cli_test(cli_st_atk_count 0 "st: 3/3 cases, 0 failed\n" st ${sg_atk} --ids=5,6,7)
  sg_cli_test(cli_st_atk_tables 0
    "single_bm high_performance +67  single_bm high_precision \\(selugrad's only standard\\)\nsingle_bm high_precision +134  single_bm high_precision\n.*f16 +67 +67 +0\nf32 +67 +67 +0\nbf16 +67 +67 +0\ntotal +201 +201 +0\n"
    st ${sg_atk} --report=${CMAKE_CURRENT_BINARY_DIR}/st_selu_grad_atk_report.json)
  sg_cli_test(cli_st_atk_malformed 1
    "FAIL \\(no id\\): the case needs an id.*FAIL 2: name aclnn.elu is not aclnnSeluBackward.*FAIL 3: gradOutput: range_values {\"name\": \"nd\"} needs .* std >= 0.*FAIL 4: gradOutput: range_values names the distribution 'uniform'.*total +5 +1 +4\n"
    st ${CMAKE_CURRENT_SOURCE_DIR}/cli/st_atk_malformed.json)
endif()
