/*
 * The order of the 64 rounds of two interleaved lanes, shared by the kernels
 * built on SHA instructions (x86_shani, arm_shani). The includer defines, for
 * its instruction set:
 *   RNDS4_2WAY(g, ma, na)      rounds 4g..4g+3 of both lanes, W in ma and na;
 *   FOUR_ROUNDS_2WAY(g, ma..md, na..nd)  the next four W of each lane, then those rounds;
 *   PAD4_2WAY(g)               rounds 4g..4g+3 of the 64-byte padding block;
 * and names the message vectors m0..m3 (first lane) and n0..n3 (second).
 */
#ifndef LIBSHA_SHA256_2WAY_H
#define LIBSHA_SHA256_2WAY_H

#define SHA256_COMPRESS_2WAY()                                                                      \
    RNDS4_2WAY(0, m0, n0); RNDS4_2WAY(1, m1, n1); RNDS4_2WAY(2, m2, n2); RNDS4_2WAY(3, m3, n3);    \
    FOUR_ROUNDS_2WAY(4, m0, m1, m2, m3, n0, n1, n2, n3); FOUR_ROUNDS_2WAY(5, m1, m2, m3, m0, n1, n2, n3, n0);  \
    FOUR_ROUNDS_2WAY(6, m2, m3, m0, m1, n2, n3, n0, n1); FOUR_ROUNDS_2WAY(7, m3, m0, m1, m2, n3, n0, n1, n2);  \
    FOUR_ROUNDS_2WAY(8, m0, m1, m2, m3, n0, n1, n2, n3); FOUR_ROUNDS_2WAY(9, m1, m2, m3, m0, n1, n2, n3, n0);  \
    FOUR_ROUNDS_2WAY(10, m2, m3, m0, m1, n2, n3, n0, n1); FOUR_ROUNDS_2WAY(11, m3, m0, m1, m2, n3, n0, n1, n2); \
    FOUR_ROUNDS_2WAY(12, m0, m1, m2, m3, n0, n1, n2, n3); FOUR_ROUNDS_2WAY(13, m1, m2, m3, m0, n1, n2, n3, n0); \
    FOUR_ROUNDS_2WAY(14, m2, m3, m0, m1, n2, n3, n0, n1); FOUR_ROUNDS_2WAY(15, m3, m0, m1, m2, n3, n0, n1, n2)

#define SHA256_PAD64_2WAY()                                                                 \
    PAD4_2WAY(0); PAD4_2WAY(1); PAD4_2WAY(2); PAD4_2WAY(3); PAD4_2WAY(4); PAD4_2WAY(5);    \
    PAD4_2WAY(6); PAD4_2WAY(7); PAD4_2WAY(8); PAD4_2WAY(9); PAD4_2WAY(10); PAD4_2WAY(11);  \
    PAD4_2WAY(12); PAD4_2WAY(13); PAD4_2WAY(14); PAD4_2WAY(15)

#endif
