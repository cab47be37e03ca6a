/* Fixture of check_exports.py: built with default visibility, it exports a function its header
   declares without the macro and an internal name the header does not declare. */
int selugrad_fixture_unmarked(void);
int sg_fixture_leak(void);
int selugrad_fixture_unmarked(void) {
    return 1;
}
int sg_fixture_leak(void) {
    return 2;
}
