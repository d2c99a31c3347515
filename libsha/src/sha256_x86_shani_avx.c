/*
 * x86_shani entry points for CPUs with AVX. Built with -mavx, so only this
 * file can emit vzeroupper; the SHA-NI code it calls stays legacy-SSE. A
 * dirty upper YMM state (left by any 256-bit write before the call) would
 * make every legacy-SSE instruction pay a state transition or a false
 * dependency; vzeroupper clears it for a cycle or so.
 */
#include <immintrin.h>

#include "sha256_impl.h"

void libsha_x86_shani_avx_transform(uint32_t state[8], const unsigned char *blocks, size_t n)
{
    _mm256_zeroupper();
    libsha_x86_shani_transform(state, blocks, n);
}

void libsha_x86_shani_avx_finalize(uint32_t state[8], const unsigned char pending[64], size_t used,
                                   uint64_t bits, unsigned char out[32])
{
    _mm256_zeroupper();
    libsha_x86_shani_finalize(state, pending, used, bits, out);
}

void libsha_x86_shani_avx_d64_1way(unsigned char *out, const unsigned char *in)
{
    _mm256_zeroupper();
    libsha_x86_shani_d64_1way(out, in);
}

void libsha_x86_shani_avx_d64_2way(unsigned char *out, const unsigned char *in)
{
    _mm256_zeroupper();
    libsha_x86_shani_d64_2way(out, in);
}
