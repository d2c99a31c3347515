/*
 * The SHA-NI kernels of two lanes (body_x86_shani_lanes.h), for every SHA-NI
 * row: 64-byte messages as pairs in a pipeline, other messages, streams,
 * SHA256D64 and PBKDF2's chains two at a time. Built with -msse4.1 -msha and
 * never -mavx, as x86_shani_1way.c; x86_shani_4way.c has the four lanes.
 */
#define LANES 2
#define LANES_MANY_WHOLE libsha_x86_shani_many_whole_2way
#define LANES_D64 libsha_x86_shani_d64_2way
#define LANES_MANY libsha_x86_shani_many_2way
#define LANES_MANY_LAST libsha_x86_shani_many_last_2way
#define LANES_CHAINS libsha_x86_shani_chains_2way
#include "body_x86_shani_lanes.h"
