// The same program as public_headers.c, built as C++ (the headers' extern "C" and types).
#include "public_headers.c"
