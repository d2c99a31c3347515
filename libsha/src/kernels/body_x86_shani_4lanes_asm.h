/*
 * Whole blocks of four SHA-NI lanes as one GNU C asm loop (x86_shani_4way.c),
 * with every register placed by hand.
 *
 * Why asm: four lanes hold 8 state vectors and 16 message vectors, and
 * sha256rnds2, sha256msg1 and sha256msg2 exist only in the legacy encoding,
 * which reaches XMM0-15 (XMM0 is sha256rnds2's K + W). AVX-512VL's
 * XMM16-31 hold the words between their uses, but compilers move them there
 * and back through the stack: gcc 12's loop from the intrinsics touched the
 * stack 57 times a block, clang 14's 37. Here the states stay in XMM1-8,
 * the words in XMM16-31 (lane l's W[4i..4i+3] in XMM(16 + 4l + i)), and a
 * schedule step copies the words it needs into XMM9-10 (register moves,
 * which the CPU eliminates); the only memory a block touches beyond its
 * message is the block's starting state, saved and added back (8 stores
 * and 8 loads for four lanes).
 *
 * The loop needs AVX-512BW as well (vpshufb and vpalignr on XMM16-31):
 * the row that runs it requires the avx512 feature, which includes BW.
 * MSVC and other compilers keep the C loop of body_x86_shani_lanes.h.
 */
#ifndef LIBSHA_BODY_X86_SHANI_4LANES_ASM_H
#define LIBSHA_BODY_X86_SHANI_4LANES_ASM_H

#if defined(__GNUC__) || defined(__clang__)
#define SHANI4_BLOCKS_ASM

#include "body_x86_shani.h"
#include "compiler.h"

/* Lane l's state (ABEF, CDGH) and its message words W[4i..4i+3]. */
#define SHANI4_A0 "%%xmm1"
#define SHANI4_C0 "%%xmm2"
#define SHANI4_A1 "%%xmm3"
#define SHANI4_C1 "%%xmm4"
#define SHANI4_A2 "%%xmm5"
#define SHANI4_C2 "%%xmm6"
#define SHANI4_A3 "%%xmm7"
#define SHANI4_C3 "%%xmm8"
#define SHANI4_M0_0 "%%xmm16"
#define SHANI4_M0_1 "%%xmm17"
#define SHANI4_M0_2 "%%xmm18"
#define SHANI4_M0_3 "%%xmm19"
#define SHANI4_M1_0 "%%xmm20"
#define SHANI4_M1_1 "%%xmm21"
#define SHANI4_M1_2 "%%xmm22"
#define SHANI4_M1_3 "%%xmm23"
#define SHANI4_M2_0 "%%xmm24"
#define SHANI4_M2_1 "%%xmm25"
#define SHANI4_M2_2 "%%xmm26"
#define SHANI4_M2_3 "%%xmm27"
#define SHANI4_M3_0 "%%xmm28"
#define SHANI4_M3_1 "%%xmm29"
#define SHANI4_M3_2 "%%xmm30"
#define SHANI4_M3_3 "%%xmm31"
#define SHANI4_A(l) SHANI4_A##l
#define SHANI4_C(l) SHANI4_C##l
#define SHANI4_M(l, i) SHANI4_M##l##_##i
#define SHANI4_MASK "%%xmm15" /* the byte swap of each word */

/* Lane l's W[4i..4i+3] from its block at p_l: loaded and byte-swapped. */
#define SHANI4_LOAD(l, i)                                                                 \
    "vmovdqu32 " #i "*16(%[p" #l "]), " SHANI4_M(l, i) "\n\t"                              \
    "vpshufb " SHANI4_MASK ", " SHANI4_M(l, i) ", " SHANI4_M(l, i) "\n\t"
#define SHANI4_LOAD_LANE(l) SHANI4_LOAD(l, 0) SHANI4_LOAD(l, 1) SHANI4_LOAD(l, 2) SHANI4_LOAD(l, 3)

/* Rounds 4g..4g+3 of lane l with W in `w`: K + W in XMM0, its high half moved down for the second
 * pair of rounds (AT&T order: sha256rnds2 K+W, ABEF, CDGH writes the new ABEF into CDGH). */
#define SHANI4_ROUNDS(l, g, w)                                                            \
    "vpaddd " #g "*16(%[k]), " w ", %%xmm0\n\t"                                            \
    "sha256rnds2 %%xmm0, " SHANI4_A(l) ", " SHANI4_C(l) "\n\t"                            \
    "vpshufd $0x0e, %%xmm0, %%xmm0\n\t"                                                   \
    "sha256rnds2 %%xmm0, " SHANI4_C(l) ", " SHANI4_A(l) "\n\t"

/* The next four words of lane l into M_i from M_i..M_q (as SCHED4), made in XMM9, then its rounds. */
#define SHANI4_SCHED_ROUNDS(l, g, i, j, k, q)                                              \
    "vmovdqa32 " SHANI4_M(l, i) ", %%xmm9\n\t"                                             \
    "vmovdqa32 " SHANI4_M(l, j) ", %%xmm10\n\t"                                            \
    "sha256msg1 %%xmm10, %%xmm9\n\t"                                                      \
    "vpalignr $4, " SHANI4_M(l, k) ", " SHANI4_M(l, q) ", %%xmm10\n\t"                     \
    "vpaddd %%xmm10, %%xmm9, %%xmm9\n\t"                                                  \
    "vmovdqa32 " SHANI4_M(l, q) ", %%xmm10\n\t"                                            \
    "sha256msg2 %%xmm10, %%xmm9\n\t"                                                      \
    "vmovdqa32 %%xmm9, " SHANI4_M(l, i) "\n\t"                                             \
    SHANI4_ROUNDS(l, g, "%%xmm9")

#define SHANI4_R(g, i) SHANI4_ROUNDS(0, g, SHANI4_M(0, i)) SHANI4_ROUNDS(1, g, SHANI4_M(1, i)) \
    SHANI4_ROUNDS(2, g, SHANI4_M(2, i)) SHANI4_ROUNDS(3, g, SHANI4_M(3, i))
#define SHANI4_S(g, i, j, k, q) SHANI4_SCHED_ROUNDS(0, g, i, j, k, q) SHANI4_SCHED_ROUNDS(1, g, i, j, k, q) \
    SHANI4_SCHED_ROUNDS(2, g, i, j, k, q) SHANI4_SCHED_ROUNDS(3, g, i, j, k, q)

/* The 64 rounds of every lane over its W0..15 in its M registers (consumed). */
#define SHANI4_COMPRESS                                                                   \
    SHANI4_R(0, 0) SHANI4_R(1, 1) SHANI4_R(2, 2) SHANI4_R(3, 3)                           \
    SHANI4_S(4, 0, 1, 2, 3) SHANI4_S(5, 1, 2, 3, 0) SHANI4_S(6, 2, 3, 0, 1) SHANI4_S(7, 3, 0, 1, 2)     \
    SHANI4_S(8, 0, 1, 2, 3) SHANI4_S(9, 1, 2, 3, 0) SHANI4_S(10, 2, 3, 0, 1) SHANI4_S(11, 3, 0, 1, 2)   \
    SHANI4_S(12, 0, 1, 2, 3) SHANI4_S(13, 1, 2, 3, 0) SHANI4_S(14, 2, 3, 0, 1) SHANI4_S(15, 3, 0, 1, 2)

/* The state of each lane: st[2l] its ABEF, st[2l + 1] its CDGH. */
#define SHANI4_STATES(op)                                                                 \
    op(0, SHANI4_A0) op(1, SHANI4_C0) op(2, SHANI4_A1) op(3, SHANI4_C1)                   \
    op(4, SHANI4_A2) op(5, SHANI4_C2) op(6, SHANI4_A3) op(7, SHANI4_C3)
#define SHANI4_LOAD_STATE(n, r) "vmovdqu " #n "*16(%[st]), " r "\n\t"
#define SHANI4_STORE_STATE(n, r) "vmovdqu " r ", " #n "*16(%[st])\n\t"
#define SHANI4_ADD_STATE(n, r) "vpaddd " #n "*16(%[st]), " r ", " r "\n\t"

/*
 * n > 0 blocks of each lane l at p[l] (advanced past them) on the states in
 * st[8] (updated). The block's starting state is kept in st and added back.
 */
static LIBSHA_ALWAYS_INLINE void shani4_blocks(__m128i st[8], const unsigned char *p[4], size_t n)
{
    const __m128i mask = BSWAP32_MASK;
    const unsigned char *p0 = p[0], *p1 = p[1], *p2 = p[2], *p3 = p[3];

    __asm__ volatile(
        "vmovdqu %[mask], " SHANI4_MASK "\n\t"
        SHANI4_STATES(SHANI4_LOAD_STATE)
        "1:\n\t"
        SHANI4_LOAD_LANE(0) SHANI4_LOAD_LANE(1) SHANI4_LOAD_LANE(2) SHANI4_LOAD_LANE(3)
        SHANI4_COMPRESS
        SHANI4_STATES(SHANI4_ADD_STATE)
        SHANI4_STATES(SHANI4_STORE_STATE)
        "add $64, %[p0]\n\t"
        "add $64, %[p1]\n\t"
        "add $64, %[p2]\n\t"
        "add $64, %[p3]\n\t"
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        : [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2), [p3] "+r"(p3), [n] "+r"(n)
        : [st] "r"(st), [k] "r"(LIBSHA_K), [mask] "m"(mask)
        : "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
          "xmm10", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24",
          "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31");
    p[0] = p0, p[1] = p1, p[2] = p2, p[3] = p3;
}

/*
 * PBKDF2's chains, four at a time (libsha_chains_f): each iteration is an
 * HMAC of the lane's last U, its inner block and then its outer block, each
 * on a saved state. Per lane, ch[8l..8l+7] holds the inner state (ABEF,
 * CDGH), the outer state, T and U; T is updated in place, U is kept in the
 * lane's M0-1 between iterations and written back at the end. The padding
 * words of a 96-byte HMAC message (W8-15) are constants.
 */
#define SHANI4_PAD_WORDS(l)                                                               \
    "vmovdqa32 %[pad2], " SHANI4_M(l, 2) "\n\t"                                           \
    "vmovdqa32 %[pad3], " SHANI4_M(l, 3) "\n\t"
#define SHANI4_CHAIN_STATE(l, at) /* A, C from ch[8l + at], ch[8l + at + 1] */             \
    "vmovdqu (8*" #l "+" #at ")*16(%[ch]), " SHANI4_A(l) "\n\t"                           \
    "vmovdqu (8*" #l "+" #at "+1)*16(%[ch]), " SHANI4_C(l) "\n\t"
#define SHANI4_CHAIN_ADD(l, at)                                                            \
    "vpaddd (8*" #l "+" #at ")*16(%[ch]), " SHANI4_A(l) ", " SHANI4_A(l) "\n\t"             \
    "vpaddd (8*" #l "+" #at "+1)*16(%[ch]), " SHANI4_C(l) ", " SHANI4_C(l) "\n\t"
/* The lane's digest (ABEF, CDGH) as the words a..h in M0-1: as TO_ABCD_EFGH. */
#define SHANI4_DIGEST_WORDS(l)                                                            \
    "vpshufd $0x1b, " SHANI4_A(l) ", %%xmm9\n\t"                                          \
    "vpshufd $0xb1, " SHANI4_C(l) ", %%xmm10\n\t"                                         \
    "vpalignr $8, %%xmm9, %%xmm10, " SHANI4_M(l, 1) "\n\t"                                \
    "vpblendw $0xf0, %%xmm10, %%xmm9, %%xmm9\n\t"                                         \
    "vmovdqa32 %%xmm9, " SHANI4_M(l, 0) "\n\t"
#define SHANI4_CHAIN_XOR(l)                                                               \
    "vpxord (8*" #l "+4)*16(%[ch]), " SHANI4_M(l, 0) ", %%xmm9\n\t"                        \
    "vpxord (8*" #l "+5)*16(%[ch]), " SHANI4_M(l, 1) ", %%xmm10\n\t"                       \
    "vmovdqu %%xmm9, (8*" #l "+4)*16(%[ch])\n\t"                                          \
    "vmovdqu %%xmm10, (8*" #l "+5)*16(%[ch])\n\t"
#define SHANI4_U(l, op) /* U between ch[8l + 6..7] and M0-1 */                            \
    op " (8*" #l "+6)*16(%[ch]), " SHANI4_M(l, 0) "\n\t"                                   \
    op " (8*" #l "+7)*16(%[ch]), " SHANI4_M(l, 1) "\n\t"
#define SHANI4_U_STORE(l)                                                                 \
    "vmovdqu32 " SHANI4_M(l, 0) ", (8*" #l "+6)*16(%[ch])\n\t"                             \
    "vmovdqu32 " SHANI4_M(l, 1) ", (8*" #l "+7)*16(%[ch])\n\t"
#define SHANI4_EACH(X, ...) X(0, __VA_ARGS__) X(1, __VA_ARGS__) X(2, __VA_ARGS__) X(3, __VA_ARGS__)
#define SHANI4_EACH1(X) X(0) X(1) X(2) X(3)
#define SHANI4_BLOCK_BEGIN(l, at) SHANI4_PAD_WORDS(l) SHANI4_CHAIN_STATE(l, at)
#define SHANI4_BLOCK_END(l, at) SHANI4_CHAIN_ADD(l, at) SHANI4_DIGEST_WORDS(l)

/* count > 0 iterations of the four chains in ch[32] (updated). */
static LIBSHA_ALWAYS_INLINE void shani4_chains(__m128i ch[32], uint64_t count)
{
    static const uint32_t pad2[4] = {0x80000000u, 0, 0, 0}, pad3[4] = {0, 0, 0, 768};

    __asm__ volatile(
        SHANI4_EACH(SHANI4_U, "vmovdqu32")
        "1:\n\t"
        SHANI4_EACH(SHANI4_BLOCK_BEGIN, 0)
        SHANI4_COMPRESS
        SHANI4_EACH(SHANI4_BLOCK_END, 0)
        SHANI4_EACH(SHANI4_BLOCK_BEGIN, 2)
        SHANI4_COMPRESS
        SHANI4_EACH(SHANI4_BLOCK_END, 2)
        SHANI4_EACH1(SHANI4_CHAIN_XOR)
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        SHANI4_EACH1(SHANI4_U_STORE)
        : [n] "+r"(count)
        : [ch] "r"(ch), [k] "r"(LIBSHA_K), [pad2] "m"(*(const uint32_t(*)[4])pad2),
          [pad3] "m"(*(const uint32_t(*)[4])pad3)
        : "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
          "xmm10", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25",
          "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31");
}

#endif
#endif
