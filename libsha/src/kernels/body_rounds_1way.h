/*
 * The one-stream kernels whose message schedule runs in vector registers
 * (sse4(1way), avx2(1way)): their scalar rounds, and the schedule four words
 * at a time. The schedule is written once for 128-bit registers (one block)
 * and 256-bit ones (a block in each 128-bit lane: every operation below
 * stays inside its lane). The includer defines VEC and
 *   V_ADD(a, b), V_XOR(a, b), V_SRL32(x, n), V_SLL32(x, n), V_SRL64(x, n),
 *   V_ALIGNR4(hi, lo) (bytes 4..19 of lo:hi), V_SHUFFLE32(x, imm),
 *   V_SHUFFLE8(x, mask), V_MASK(hi64, lo64) (a byte-shuffle mask, the same
 *   in every 128-bit lane).
 */
#ifndef LIBSHA_SHA256_ROUNDS_1WAY_H
#define LIBSHA_SHA256_ROUNDS_1WAY_H

#include <stdint.h>

#include "fips180.h"
#include "sha256_impl.h"

#define LIBSHA_ROTR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define LIBSHA_BSIG0(a) (LIBSHA_ROTR32(a, 2) ^ LIBSHA_ROTR32(a, 13) ^ LIBSHA_ROTR32(a, 22))
#define LIBSHA_BSIG1(e) (LIBSHA_ROTR32(e, 6) ^ LIBSHA_ROTR32(e, 11) ^ LIBSHA_ROTR32(e, 25))

/*
 * Two forms of one round; rounds rotate the names a..h instead of moving
 * values. Both take Maj as ((a ^ b) & (b ^ c)) ^ b, whose b ^ c is the round
 * before's a ^ b. The forms were chosen by measuring each kernel here and
 * by llvm-mca's models of the 4-wide cores these kernels are for (Sandy
 * Bridge to Skylake):
 * - NARROW, the fewest instructions (T1 once, d += T1): for rounds that share
 *   the front end with the vector schedule, where a 4-wide core is bound by
 *   instructions issued;
 * - SHORT sums the new e on its own, Sigma1(e) last, so that it waits on e
 *   for fewer additions (three more instructions): for rounds that run alone
 *   and wait on their chain of dependencies.
 */
#define LIBSHA_ROUND_NARROW(a, b, c, d, e, f, g, h, kw)                                            \
    do {                                                                                           \
        h += (kw) + (((f ^ g) & e) ^ g) + LIBSHA_BSIG1(e);                                         \
        d += h;                                                                                    \
        h += LIBSHA_BSIG0(a) + (((a ^ b) & (b ^ c)) ^ b);                                          \
    } while (0)
#define LIBSHA_ROUND_SHORT(a, b, c, d, e, f, g, h, kw)                                             \
    do {                                                                                           \
        uint32_t ch_ = ((f ^ g) & e) ^ g, s1_ = LIBSHA_BSIG1(e);                                   \
        uint32_t t1_ = h + (kw) + ch_ + s1_;                                                       \
        d = d + h + (kw) + ch_ + s1_;                                                              \
        h = t1_ + LIBSHA_BSIG0(a) + (((a ^ b) & (b ^ c)) ^ b);                                     \
    } while (0)

/* Four rounds of ROUND from kw[0..3]: _A with the names in place, _B half-way rotated. */
#define LIBSHA_ROUNDS4_A(ROUND, kw)              \
    ROUND(a, b, c, d, e, f, g, h, (kw)[0]);      \
    ROUND(h, a, b, c, d, e, f, g, (kw)[1]);      \
    ROUND(g, h, a, b, c, d, e, f, (kw)[2]);      \
    ROUND(f, g, h, a, b, c, d, e, (kw)[3])
#define LIBSHA_ROUNDS4_B(ROUND, kw)              \
    ROUND(e, f, g, h, a, b, c, d, (kw)[0]);      \
    ROUND(d, e, f, g, h, a, b, c, (kw)[1]);      \
    ROUND(c, d, e, f, g, h, a, b, (kw)[2]);      \
    ROUND(b, c, d, e, f, g, h, a, (kw)[3])

#define LIBSHA_ADD_STATE(s)                                                                         \
    (s[0] += a, s[1] += b, s[2] += c, s[3] += d, s[4] += e, s[5] += f, s[6] += g, s[7] += h)

/* sigma1 of two words at once: each sits doubled in a 64-bit lane, where a
 * 64-bit right shift is a 32-bit rotation of the low half. The results are
 * in 32-bit lanes 0 and 2; the byte shuffles in schedule4 pick them out. */
static LIBSHA_ALWAYS_INLINE VEC sigma1_doubled(VEC d)
{
    return V_XOR(V_XOR(V_SRL64(d, 17), V_SRL64(d, 19)), V_SRL32(d, 10));
}

static LIBSHA_ALWAYS_INLINE VEC sigma0x4(VEC x)
{
    VEC r = V_XOR(V_SRL32(x, 7), V_SLL32(x, 25));
    r = V_XOR(r, V_XOR(V_SRL32(x, 18), V_SLL32(x, 14)));
    return V_XOR(r, V_SRL32(x, 3));
}

/* W[t..t+3] from x0..x3 = W[t-16..t-1]. */
static LIBSHA_ALWAYS_INLINE VEC schedule4(VEC x0, VEC x1, VEC x2, VEC x3)
{
    const VEC low_pair = V_MASK(-1LL, 0x0b0a090803020100LL);
    const VEC high_pair = V_MASK(0x0b0a090803020100LL, -1LL);
    VEC w = V_ADD(V_ADD(x0, V_ALIGNR4(x3, x2)), sigma0x4(V_ALIGNR4(x1, x0)));
    /* W[t] and W[t+1] need sigma1 of W[t-2] and W[t-1]; W[t+2] and W[t+3] of those two. */
    w = V_ADD(w, V_SHUFFLE8(sigma1_doubled(V_SHUFFLE32(x3, 0xfa)), low_pair));
    return V_ADD(w, V_SHUFFLE8(sigma1_doubled(V_SHUFFLE32(w, 0x50)), high_pair));
}

/*
 * Rounds 0..47 of a block, the schedule four groups ahead beside them: x0..x3
 * hold W[0..15] (of one block, or of two in 256-bit lanes), group g's K + W
 * goes to kw + STRIDE * g by the includer's STORE_KW(p, k, x), and block n's
 * rounds read it through ROUNDS4_A and ROUNDS4_B (the includer's choice of
 * form). The loop runs through a pointer: fully unrolled, gcc forwarded K + W
 * from the vector registers (pextrd) and spilled the state.
 */
#define LIBSHA_ROUNDS48_SCHEDULED(kw, STRIDE)                                  \
    do {                                                                       \
        const uint32_t *p_;                                                    \
        int i_;                                                                \
        STORE_KW(kw, LIBSHA_K, x0);                                            \
        STORE_KW((kw) + (STRIDE), LIBSHA_K + 4, x1);                           \
        STORE_KW((kw) + 2 * (STRIDE), LIBSHA_K + 8, x2);                       \
        STORE_KW((kw) + 3 * (STRIDE), LIBSHA_K + 12, x3);                      \
        for (i_ = 0, p_ = (kw); i_ < 3; ++i_, p_ += 4 * (STRIDE)) {            \
            const uint32_t *k_ = LIBSHA_K + 16 + 16 * i_;                      \
            ROUNDS4_A(p_);                                                     \
            x0 = schedule4(x0, x1, x2, x3);                                    \
            STORE_KW(p_ + 4 * (STRIDE), k_, x0);                               \
            ROUNDS4_B(p_ + (STRIDE));                                          \
            x1 = schedule4(x1, x2, x3, x0);                                    \
            STORE_KW(p_ + 5 * (STRIDE), k_ + 4, x1);                           \
            ROUNDS4_A(p_ + 2 * (STRIDE));                                      \
            x2 = schedule4(x2, x3, x0, x1);                                    \
            STORE_KW(p_ + 6 * (STRIDE), k_ + 8, x2);                           \
            ROUNDS4_B(p_ + 3 * (STRIDE));                                      \
            x3 = schedule4(x3, x0, x1, x2);                                    \
            STORE_KW(p_ + 7 * (STRIDE), k_ + 12, x3);                          \
        }                                                                      \
    } while (0)

#endif
