/*
 * A round and a schedule word of the AVX-512 lane kernels as GNU C asm,
 * for any width (the operands' type prints zmm, ymm or xmm registers).
 *
 * Why asm: with the schedule in registers (RING_IN_REGISTERS), a round
 * needs sixteen words, eight state words and five temporaries: 29 of the
 * 32 registers. From the intrinsics, gcc 12 spills some 80 vectors a block
 * and adds 150 moves; clang keeps a few dozen stack operands. Here each
 * step's temporaries are its own early-clobbered outputs and the state and
 * words are updated in place, so the compiler only places whole steps and
 * every value stays in a register. The order within a round puts e's
 * chain (Sigma1, Ch, the adds into d) first: it is the one the next round
 * waits for.
 *
 * vpternlogd's immediate is the truth table of (dst, src2, src3) in Intel
 * order; AT&T writes the operands reversed: 0x96 a three-way xor, 0xca
 * Ch(e, f, g) = e ? f : g, 0xe8 Maj.
 *
 * Included before body_lanes.h, this defines RING_IN_REGISTERS, RING_ROUND_OPS
 * and RING_SCHEDULE_OPS (body_rounds_ring.h reads them) where the compiler
 * speaks GNU asm. MSVC keeps the C rounds and the ring in memory: from the
 * intrinsics with the ring in registers, gcc's 16-lane block models 1.09 x
 * slower than from the ring in memory (znver4), with 173 stack operands.
 */
#ifndef LIBSHA_BODY_ROUNDS_AVX512_ASM_H
#define LIBSHA_BODY_ROUNDS_AVX512_ASM_H

#if defined(__GNUC__) || defined(__clang__)
#define RING_IN_REGISTERS
/* d += t1 and h = t1 + Sigma0(a) + Maj(a, b, c), t1 = h + kw + Ch(e, f, g) + Sigma1(e). */
#define RING_ROUND_OPS(A_, B_, C_, D_, E_, F_, G_, H_, KW_)                                     \
    do {                                                                                  \
        VEC s1_, s2_, s3_, m_;                                                            \
        __asm__("vprord $6, %[e], %[s1]\n\t"                                              \
                "vprord $11, %[e], %[s2]\n\t"                                             \
                "vprord $25, %[e], %[s3]\n\t"                                             \
                "vmovdqa32 %[e], %[m]\n\t"                                                \
                "vpaddd %[kw], %[h], %[h]\n\t"                                            \
                "vpternlogd $0x96, %[s3], %[s2], %[s1]\n\t"                               \
                "vpternlogd $0xca, %[g], %[f], %[m]\n\t"                                  \
                "vpaddd %[m], %[h], %[h]\n\t"                                             \
                "vpaddd %[s1], %[h], %[h]\n\t"                                            \
                "vprord $2, %[a], %[s1]\n\t"                                              \
                "vprord $13, %[a], %[s2]\n\t"                                             \
                "vprord $22, %[a], %[s3]\n\t"                                             \
                "vpaddd %[h], %[d], %[d]\n\t"                                             \
                "vmovdqa32 %[a], %[m]\n\t"                                                \
                "vpternlogd $0x96, %[s3], %[s2], %[s1]\n\t"                               \
                "vpternlogd $0xe8, %[c], %[b], %[m]\n\t"                                  \
                "vpaddd %[s1], %[h], %[h]\n\t"                                            \
                "vpaddd %[m], %[h], %[h]"                                                 \
                : [d] "+&v"(D_), [h] "+&v"(H_), [s1] "=&v"(s1_), [s2] "=&v"(s2_),             \
                  [s3] "=&v"(s3_), [m] "=&v"(m_)                                          \
                : [a] "v"(A_), [b] "v"(B_), [c] "v"(C_), [e] "v"(E_), [f] "v"(F_), [g] "v"(G_), \
                  [kw] "v"(KW_));                                                          \
    } while (0)

/* wi += sigma1(w14) + w9 + sigma0(w1): W[i + 16] over W[i], from W[i + 14], W[i + 9], W[i + 1]. */
#define RING_SCHEDULE_OPS(WI_, W1_, W9_, W14_)                                               \
    do {                                                                                  \
        VEC s1_, s2_, s3_;                                                                \
        __asm__("vprord $17, %[w14], %[s1]\n\t"                                           \
                "vprord $19, %[w14], %[s2]\n\t"                                           \
                "vpsrld $10, %[w14], %[s3]\n\t"                                           \
                "vpternlogd $0x96, %[s3], %[s2], %[s1]\n\t"                               \
                "vpaddd %[w9], %[wi], %[wi]\n\t"                                          \
                "vpaddd %[s1], %[wi], %[wi]\n\t"                                          \
                "vprord $7, %[w1], %[s1]\n\t"                                             \
                "vprord $18, %[w1], %[s2]\n\t"                                            \
                "vpsrld $3, %[w1], %[s3]\n\t"                                             \
                "vpternlogd $0x96, %[s3], %[s2], %[s1]\n\t"                               \
                "vpaddd %[s1], %[wi], %[wi]"                                              \
                : [wi] "+&v"(WI_), [s1] "=&v"(s1_), [s2] "=&v"(s2_), [s3] "=&v"(s3_)        \
                : [w1] "v"(W1_), [w9] "v"(W9_), [w14] "v"(W14_));                            \
    } while (0)
#endif

#endif
