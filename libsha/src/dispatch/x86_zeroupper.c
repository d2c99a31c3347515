/* The one function built with -mavx outside the AVX2 kernel files: vzeroupper, called
 * on entry to libsha on CPUs with AVX. A dirty upper YMM state, left by any
 * 256-bit write before the call, makes every legacy-SSE instruction after it
 * (our generic code and x86_shani) pay a state transition or a false
 * dependency; measured here, it tripled the time of a 32-byte hash. */
#include <immintrin.h>

#include "dispatch/enter.h"

void libsha_x86_zeroupper(void)
{
    _mm256_zeroupper();
}
