/* Fixture of check_cycles.py: p/one and q/two call each other without any include between them,
   a cycle only the objects show (files and folders p <-> q). */
int sg_fixture_two(int n);
int sg_fixture_one(int n);
int sg_fixture_one(int n) {
    return n > 0 ? sg_fixture_two(n - 1) : 0;
}
