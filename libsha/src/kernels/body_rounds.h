/*
 * The SHA-256 round and message-schedule steps, written once for scalar and
 * vector code. The includer defines its word type's operations:
 *   OP_ADD(a, b), OP_XOR(a, b), OP_AND(a, b), OP_OR(a, b), OP_SHR(x, n), OP_SHL(x, n)
 * and names its state a..h and message words w0..w15. Each lane of a vector
 * is one independent message; a scalar is the one-lane case.
 */
#ifndef LIBSHA_SHA256_ROUNDS_H
#define LIBSHA_SHA256_ROUNDS_H

/* An instruction set with a rotate or a three-input logic op (AVX-512's
 * vprold, vpternlogd) defines these four itself, before this header. */
#ifndef OP_ROTR
#define OP_ROTR(x, n) OP_OR(OP_SHR(x, n), OP_SHL(x, 32 - (n)))
#endif
#ifndef OP_XOR3
#define OP_XOR3(x, y, z) OP_XOR(OP_XOR(x, y), z)
#endif
#ifndef OP_CH
#define OP_CH(x, y, z) OP_XOR(z, OP_AND(x, OP_XOR(y, z)))
#endif
#ifndef OP_MAJ
#define OP_MAJ(x, y, z) OP_OR(OP_AND(x, y), OP_AND(z, OP_OR(x, y)))
#endif
#define OP_BSIG0(x) OP_XOR3(OP_ROTR(x, 2), OP_ROTR(x, 13), OP_ROTR(x, 22))
#define OP_BSIG1(x) OP_XOR3(OP_ROTR(x, 6), OP_ROTR(x, 11), OP_ROTR(x, 25))
#define OP_SSIG0(x) OP_XOR3(OP_ROTR(x, 7), OP_ROTR(x, 18), OP_SHR(x, 3))
#define OP_SSIG1(x) OP_XOR3(OP_ROTR(x, 17), OP_ROTR(x, 19), OP_SHR(x, 10))

/* One round. Callers rotate the names a..h instead of moving eight values. */
#define SHA256_ROUND(a, b, c, d, e, f, g, h, kw)                                   \
    do {                                                                           \
        t1 = OP_ADD(OP_ADD(OP_ADD(h, OP_BSIG1(e)), OP_CH(e, f, g)), kw);           \
        t2 = OP_ADD(OP_BSIG0(a), OP_MAJ(a, b, c));                                 \
        d = OP_ADD(d, t1);                                                         \
        h = OP_ADD(t1, t2);                                                        \
    } while (0)

/* Four rounds starting at round i; KW(i, w) gives round i's K[i] + W[i].
 * _A starts with the names in place (i % 8 == 0), _B half-way rotated. */
#define SHA256_ROUNDS4_A(KW, i, wa, wb, wc, wd)              \
    SHA256_ROUND(a, b, c, d, e, f, g, h, KW((i) + 0, wa));   \
    SHA256_ROUND(h, a, b, c, d, e, f, g, KW((i) + 1, wb));   \
    SHA256_ROUND(g, h, a, b, c, d, e, f, KW((i) + 2, wc));   \
    SHA256_ROUND(f, g, h, a, b, c, d, e, KW((i) + 3, wd))
#define SHA256_ROUNDS4_B(KW, i, wa, wb, wc, wd)              \
    SHA256_ROUND(e, f, g, h, a, b, c, d, KW((i) + 0, wa));   \
    SHA256_ROUND(d, e, f, g, h, a, b, c, KW((i) + 1, wb));   \
    SHA256_ROUND(c, d, e, f, g, h, a, b, KW((i) + 2, wc));   \
    SHA256_ROUND(b, c, d, e, f, g, h, a, KW((i) + 3, wd))

#define SHA256_ROUNDS16(KW, i)                           \
    SHA256_ROUNDS4_A(KW, (i) + 0, w0, w1, w2, w3);       \
    SHA256_ROUNDS4_B(KW, (i) + 4, w4, w5, w6, w7);       \
    SHA256_ROUNDS4_A(KW, (i) + 8, w8, w9, w10, w11);     \
    SHA256_ROUNDS4_B(KW, (i) + 12, w12, w13, w14, w15)

/* The next 16 schedule words, in place: w[j] += s1(w[j-2]) + w[j-7] + s0(w[j-15])
 * with indices mod 16, in order, so each term is already the one FIPS asks for. */
#define SHA256_SCHED(wj, w_2, w_7, w_15) wj = OP_ADD(OP_ADD(OP_ADD(wj, OP_SSIG1(w_2)), w_7), OP_SSIG0(w_15))
#define SHA256_SCHEDULE16()                  \
    SHA256_SCHED(w0, w14, w9, w1);           \
    SHA256_SCHED(w1, w15, w10, w2);          \
    SHA256_SCHED(w2, w0, w11, w3);           \
    SHA256_SCHED(w3, w1, w12, w4);           \
    SHA256_SCHED(w4, w2, w13, w5);           \
    SHA256_SCHED(w5, w3, w14, w6);           \
    SHA256_SCHED(w6, w4, w15, w7);           \
    SHA256_SCHED(w7, w5, w0, w8);            \
    SHA256_SCHED(w8, w6, w1, w9);            \
    SHA256_SCHED(w9, w7, w2, w10);           \
    SHA256_SCHED(w10, w8, w3, w11);          \
    SHA256_SCHED(w11, w9, w4, w12);          \
    SHA256_SCHED(w12, w10, w5, w13);         \
    SHA256_SCHED(w13, w11, w6, w14);         \
    SHA256_SCHED(w14, w12, w7, w15);         \
    SHA256_SCHED(w15, w13, w8, w0)

/* All 64 rounds over w0..w15 (consumed). */
#define SHA256_ROUNDS64(KW)     \
    SHA256_ROUNDS16(KW, 0);     \
    SHA256_SCHEDULE16();        \
    SHA256_ROUNDS16(KW, 16);    \
    SHA256_SCHEDULE16();        \
    SHA256_ROUNDS16(KW, 32);    \
    SHA256_SCHEDULE16();        \
    SHA256_ROUNDS16(KW, 48)

#endif
