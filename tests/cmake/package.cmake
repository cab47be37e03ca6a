# The selugrad command's man page (tools/selugrad/selugrad.1, installed as man selugrad): it
# formats without a groff warning and names every subcommand and option the command's --help
# texts give. The Debian package itself is checked in CI (scripts/deb_check.sh: dpkg needs root).
if(TARGET selugrad_cli AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME man_page
           COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/man_check.sh $<TARGET_FILE:selugrad_cli>
                   ${PROJECT_SOURCE_DIR}/tools/selugrad/selugrad.1)
endif()
