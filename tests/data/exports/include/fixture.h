/* Fixture of check_exports.py: one function marked for export that the library lacks, one
   declared without the macro. */
SELUGRAD_API int selugrad_fixture_declared(void);
int selugrad_fixture_unmarked(void);
