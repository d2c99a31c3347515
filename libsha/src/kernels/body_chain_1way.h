/*
 * PBKDF2's one-chain kernel on a one-stream compression: U = HMAC(password, U) from the pad states,
 * T ^= U, `count` times. The includer names it CHAINS_1WAY and defines CHAIN_BLOCK(s, x): compress
 * the state s (uint32_t[8], its feed-forward included) over the block whose W0..7 are x[0..7] and
 * W8..15 the padding of an HMAC's 96-byte message (0x80000000, zeros, 768), constants it may fold.
 * standard(1way) gives it the scalar rounds, the sse4 and avx2 files their rounds beside a vector
 * schedule.
 */
#include <string.h>

#include "sha256_impl.h"

libsha_chains_f CHAINS_1WAY;

void CHAINS_1WAY(struct libsha_chain *const chains[], uint64_t count)
{
    struct libsha_chain *c = chains[0];
    uint32_t u[8], t[8], s[8];
    int i;

    memcpy(u, c->u, sizeof u);
    memcpy(t, c->t, sizeof t);
    for (; count > 0; --count) {
        memcpy(s, c->inner, sizeof s);
        CHAIN_BLOCK(s, u);
        memcpy(u, c->outer, sizeof u);
        CHAIN_BLOCK(u, s);
        for (i = 0; i < 8; ++i)
            t[i] ^= u[i];
    }
    memcpy(c->u, u, sizeof u);
    memcpy(c->t, t, sizeof t);
}
