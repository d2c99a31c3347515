/* avx2(8way): eight blobs or messages at once in AVX2 lanes. */
#include <immintrin.h>

#include "sha256_impl.h"

#include "body_lanes_m256.h"
#include "body_transpose_8x8.h"
#define V_GATHER_BLOCK(p, at, w) GATHER8_BLOCK(p, at, w)
#define MULTIWAY_D64 libsha_avx2_d64_8way
#define MULTIWAY_MANY libsha_avx2_many_8way
#define MULTIWAY_CHAINS libsha_avx2_chains_8way
#define MULTIWAY_MANY_LAST libsha_avx2_many_last_8way
#define MULTIWAY_MANY_WHOLE libsha_avx2_many_whole_8way

#include "body_lanes.h"
