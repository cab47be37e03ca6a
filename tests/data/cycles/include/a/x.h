/* Fixture of check_cycles.py: a/x and b/y include each other (files and folders a <-> b). */
#include "../b/y.h"
