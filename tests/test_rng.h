/* The tests' random numbers: xorshift64* (Marsaglia's xorshift, then Vigna's multiplier), on a
   state each test seeds itself, so that a failure repeats from its seed. */
#ifndef SELUGRAD_TESTS_TEST_RNG_H
#define SELUGRAD_TESTS_TEST_RNG_H

#include <stdint.h>

static inline uint64_t sgt_xorshift64s(uint64_t *state) {
    uint64_t s = *state;
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    *state = s;
    return s * 0x2545F4914F6CDD1Dull;
}

#endif /* SELUGRAD_TESTS_TEST_RNG_H */
