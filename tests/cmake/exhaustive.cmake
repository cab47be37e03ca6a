# sg_all_pairs16: the 16-bit SIMD kernels against the scalar ones on every (g, o) pair, by hand
# (`build/tests/sg_all_pairs16`, a few minutes); the suite runs 256 evenly spaced rows of each.
sg_exhaustive_program(sg_all_pairs16 all_pairs16.c --rows=256 --rows=0 "usage: .*--rows=N")
