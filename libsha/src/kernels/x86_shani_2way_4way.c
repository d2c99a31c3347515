/*
 * The SHA-NI kernels of several lanes (body_x86_shani_lanes.h): two lanes for
 * every SHA-NI row (64-byte messages as pairs in a pipeline), and the four
 * of x86_shani(1way,2way,4way): SHA256D64 and PBKDF2's chains, where four
 * lanes measured faster than two on AMD Zen 4. Messages of other lengths stay
 * on two lanes in that row too: four lanes' state and message words need 24
 * XMM registers of 16, and their spills made them slower than two. Built with
 * -msse4.1 -msha and never -mavx, as x86_shani_1way.c.
 */
#define LANES 2
#define LANES_MANY_WHOLE libsha_x86_shani_many_whole_2way
#define LANES_D64 libsha_x86_shani_d64_2way
#define LANES_MANY libsha_x86_shani_many_2way
#define LANES_MANY_LAST libsha_x86_shani_many_last_2way
#define LANES_CHAINS libsha_x86_shani_chains_2way
#include "body_x86_shani_lanes.h"
#undef LANES
#undef LANES_MANY_WHOLE
#undef LANES_D64
#undef LANES_MANY
#undef LANES_MANY_LAST
#undef LANES_CHAINS

#define LANES 4
#define LANES_D64 libsha_x86_shani_d64_4way
#define LANES_CHAINS libsha_x86_shani_chains_4way
#include "body_x86_shani_lanes.h"
