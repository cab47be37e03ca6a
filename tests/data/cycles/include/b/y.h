/* Fixture of check_cycles.py: see a/x.h. */
#include "../a/x.h"
