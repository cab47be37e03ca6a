/* Fixture of check_cycles.py: see p/one.c. */
int sg_fixture_one(int n);
int sg_fixture_two(int n);
int sg_fixture_two(int n) {
    return n > 0 ? sg_fixture_one(n - 1) : 1;
}
