/* sse41(4way): four blobs or messages at once in SSE4.1 lanes. */
#include <immintrin.h>

#include "sha256_impl.h"

#include "body_lanes_m128.h"
#include "body_transpose_4x4.h"
#define V_GATHER_BLOCK(p, at, w) GATHER4_BLOCK(p, at, w)
#define MULTIWAY_D64 libsha_sse41_d64_4way
#define MULTIWAY_MANY libsha_sse41_many_4way
#define MULTIWAY_CHAINS libsha_sse41_chains_4way
#define MULTIWAY_MANY_LAST libsha_sse41_many_last_4way
#define MULTIWAY_MANY_WHOLE libsha_sse41_many_whole_4way

#include "body_lanes.h"
