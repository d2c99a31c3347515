/* The C tests' seeded generator (xorshift64*): a failing case can be rebuilt from the printed
 * seed, and its bytes have no period a lane bug could hide in. */
#ifndef LIBSHA_TESTS_RNG_H
#define LIBSHA_TESTS_RNG_H

static unsigned long long rng_state;

static unsigned long long rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}

#endif
