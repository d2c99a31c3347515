/*
 * The lane-generic body (body_lanes.h) a second time, on generic vectors:
 * 16 lanes, as the AVX-512 rows have them (8 lanes are the same body, run on
 * every x86 CPU as avx2(8way)). Built into the library only
 * with -DLIBSHA_TEST_PORTABLE_LANES=ON (tests/many/test_portable_lanes.py), as
 * a tests-only row after standard (registry.c), so that the body's lane
 * logic, its last-block kernel and the scheduler's 16-lane paths are tested
 * on every CPU, AVX-512 or not. Never in a release build.
 */
#include <string.h>

#include "sha256_impl.h"

/* GCC and Clang's generic vectors: plain C operators on sixteen words, which
 * the compiler lowers to whatever the target has (SSE2 halves, NEON, scalar).
 * (Sixteen words whatever LANES is: a narrower build would leave the top ones zero.) */
typedef uint32_t lanes16 __attribute__((vector_size(64)));

static inline lanes16 set1(uint32_t x)
{
    lanes16 a = {0};
    return a + x;
}

static inline lanes16 loadu(const uint32_t *p, int lanes)
{
    lanes16 a = {0};
    memcpy(&a, p, sizeof(uint32_t) * (size_t)lanes);
    return a;
}

/* Word i of each lane's block, one vector per word: the transpose the SIMD
 * files do with shuffles, here one word at a time. */
static inline void gather(const unsigned char *const p[], size_t at, int lanes, lanes16 w[16])
{
    int i, lane;
    for (i = 0; i < 16; ++i) {
        w[i] = set1(0);
        for (lane = 0; lane < lanes; ++lane)
            w[i][lane] = libsha_load_be32(p[lane] + at + 4 * i);
    }
}

/* Generic vectors take C's operators, as scalars do. body_rounds_scalar.h defines OP_MAJ before
 * body_lanes.h comes in, so this build runs the rounds' one-operation Maj shape (AVX-512's), which
 * no x86 CPU without AVX-512 would test; avx2(8way) and sse41(4way) run the Maj-by-xor shape. */
#include "kernels/body_rounds_scalar.h"
#define VEC lanes16
#define V_SET1(x) set1((uint32_t)(x))
#define V_LOADU(p) loadu((const uint32_t *)(p), LANES)
#define V_STOREU(p, x) memcpy((p), &(x), sizeof(uint32_t) * LANES)
#define V_GATHER_BLOCK(p, at, w) gather((p), (at), LANES, (w))

#define LANES 16
#define MULTIWAY_D64 libsha_portable_d64_16way
#define MULTIWAY_MANY libsha_portable_many_16way
#define MULTIWAY_CHAINS libsha_portable_chains_16way
#define MULTIWAY_MANY_LAST libsha_portable_many_last_16way
#define MULTIWAY_MANY_WHOLE libsha_portable_many_whole_16way
#include "kernels/body_lanes.h"
