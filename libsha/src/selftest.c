/* Known-answer test run before an implementation is installed, as Bitcoin
 * Core's SelfTest(): a miscompiled or mis-detected kernel is never used. */
#include <string.h>

#include "sha256_impl.h"
#include "selftest_vectors.h"

static int d64_matches(libsha_d64_fn d64, size_t width)
{
    unsigned char out[8 * 32];
    if (d64 == NULL)
        return 1;
    d64(out, selftest_input);
    return memcmp(out, selftest_d64, width * 32) == 0;
}

int libsha_selftest(const struct libsha_impl *impl)
{
    size_t blocks;

    /* 0 to 8 blocks, so loops inside multi-block transforms are covered too. */
    for (blocks = 0; blocks <= 8; ++blocks) {
        uint32_t state[8];
        memcpy(state, LIBSHA_H0, sizeof state);
        impl->transform(state, selftest_input, blocks);
        if (memcmp(state, selftest_states[blocks], sizeof state) != 0)
            return -1;
    }
    if (impl->d64_1way == NULL || !d64_matches(impl->d64_1way, 1) || !d64_matches(impl->d64_2way, 2) ||
        !d64_matches(impl->d64_4way, 4) || !d64_matches(impl->d64_8way, 8))
        return -1;
    return 0;
}
