/*
 * The SHA-NI kernels of four lanes (body_x86_shani_lanes.h), for
 * x86_shani(1way,2way,4way): where the CPU keeps four sha256rnds2 in flight
 * (AMD Zen 4 and 5; the CPU model table says where the row is chosen), four
 * lanes of messages, streams, SHA256D64 and PBKDF2's chains; 64-byte messages
 * as two pipelines of pairs.
 *
 * Four lanes' states and message words are 24 vectors, and the legacy SSE
 * encoding reaches 16 XMM registers. Built with AVX-512VL, XMM16-31 hold the
 * words between their uses: the SHA instructions themselves have no EVEX form
 * and still take XMM0-15. Built with SSE4.1 alone, the spills cost Zen 4 0.40
 * ns/byte on 16 KiB messages against two lanes' 0.33; so the row needs
 * AVX-512, which every CPU that keeps four chains has. With GCC and Clang the
 * block loop and PBKDF2's loop are asm (body_x86_shani_4lanes_asm.h): from the
 * intrinsics the compilers moved the words through the stack.
 */
#include "body_x86_shani.h"
#include "body_x86_shani_4lanes_asm.h"

#define LANES 4
#define LANES_MANY_WHOLE libsha_x86_shani_many_whole_4way
#define LANES_D64 libsha_x86_shani_d64_4way
#define LANES_MANY libsha_x86_shani_many_4way
#define LANES_MANY_LAST libsha_x86_shani_many_last_4way
#define LANES_CHAINS libsha_x86_shani_chains_4way
#include "body_x86_shani_lanes.h"
