/* The oracle's gallery (tests/tools/test_oracle*.py): a plain SHA-256, correct as written, with one bug
   switched on per build (-DBUG_...), and a correct one-shot paced to a given speed (-DPACE_MBPS=50). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static const uint32_t K[64] = {
 0x428a2f98,0x71374491,0xb5c0fbcf,0xe9b5dba5,0x3956c25b,0x59f111f1,0x923f82a4,0xab1c5ed5,0xd807aa98,0x12835b01,
 0x243185be,0x550c7dc3,0x72be5d74,0x80deb1fe,0x9bdc06a7,0xc19bf174,0xe49b69c1,0xefbe4786,0x0fc19dc6,0x240ca1cc,
 0x2de92c6f,0x4a7484aa,0x5cb0a9dc,0x76f988da,0x983e5152,0xa831c66d,0xb00327c8,0xbf597fc7,0xc6e00bf3,0xd5a79147,
 0x06ca6351,0x14292967,0x27b70a85,0x2e1b2138,0x4d2c6dfc,0x53380d13,0x650a7354,0x766a0abb,0x81c2c92e,0x92722c85,
 0xa2bfe8a1,0xa81a664b,0xc24b8b70,0xc76c51a3,0xd192e819,0xd6990624,0xf40e3585,0x106aa070,0x19a4c116,0x1e376c08,
 0x2748774c,0x34b0bcb5,0x391c0cb3,0x4ed8aa4a,0x5b9cca4f,0x682e6ff3,0x748f82ee,0x78a5636f,0x84c87814,0x8cc70208,
 0x90befffa,0xa4506ceb,0xbef9a3f7,0xc67178f2};
#define R(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
typedef struct { uint32_t h[8]; unsigned char buf[64]; uint64_t len; } ctx_t;
static void block(uint32_t h[8], const unsigned char *p) {
    uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2; int t;
    for (t = 0; t < 16; ++t) w[t] = (uint32_t)p[4*t] << 24 | (uint32_t)p[4*t+1] << 16 | (uint32_t)p[4*t+2] << 8 | p[4*t+3];
    for (t = 16; t < 64; ++t)
        w[t] = (R(w[t-2],17) ^ R(w[t-2],19) ^ (w[t-2] >> 10)) + w[t-7] + (R(w[t-15],7) ^ R(w[t-15],18) ^ (w[t-15] >> 3)) + w[t-16];
    a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (t = 0; t < 64; ++t) {
        t1 = k + (R(e,6) ^ R(e,11) ^ R(e,25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
        t2 = (R(a,2) ^ R(a,13) ^ R(a,22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}
void g_init(ctx_t *c) {
    static const uint32_t h0[8] = {0x6a09e667,0xbb67ae85,0x3c6ef372,0xa54ff53a,0x510e527f,0x9b05688c,0x1f83d9ab,0x5be0cd19};
    memcpy(c->h, h0, 32); c->len = 0;
}
void g_update(ctx_t *c, const unsigned char *p, size_t n) {
#ifdef BUG_UPDATE32
    n = (uint32_t)n;  /* a 32-bit length inside update: only a single update of 4 GiB or more shows it */
#endif
#ifdef BUG_SPLIT63
    if (c->len % 64 == 63 && n > 0) ++p, --n, ++c->len;  /* drops a byte when a piece starts at 63 */
#endif
    while (n > 0) {
        size_t used = c->len % 64, take = 64 - used < n ? 64 - used : n;
        memcpy(c->buf + used, p, take);
        c->len += take, p += take, n -= take;
        if (c->len % 64 == 0) block(c->h, c->buf);
    }
}
void g_final(ctx_t *c, unsigned char out[32]) {
    size_t used = c->len % 64; uint64_t bits = c->len * 8; int i;
    c->buf[used++] = 0x80;
#ifdef BUG_PAD55
    if (used > 57) {  /* should be > 56: a 55-byte tail leaves no room, and this misses it */
#else
    if (used > 56) {
#endif
        memset(c->buf + used, 0, 64 - used); block(c->h, c->buf); used = 0;
    }
    memset(c->buf + used, 0, 64 - used);
#ifdef BUG_LEN32
    bits = (uint32_t)bits;  /* the length in bits kept in 32 bits: wrong from 2^29 bytes */
#endif
    for (i = 0; i < 8; ++i)
#ifdef BUG_LEN_LE
        c->buf[56 + i] = (unsigned char)(bits >> (8 * i));
#else
        c->buf[63 - i] = (unsigned char)(bits >> (8 * i));
#endif
    block(c->h, c->buf);
#ifdef BUG_OUT_LE
    for (i = 0; i < 32; ++i) out[i] = (unsigned char)(c->h[i / 4] >> (8 * (i % 4)));  /* words little-endian */
#else
    for (i = 0; i < 32; ++i) out[i] = (unsigned char)(c->h[i / 4] >> (24 - 8 * (i % 4)));
#endif
}
#ifdef PACE_MBPS
/* Correct and slow: OpenSSL's SHA256 (from -DPACE_LIBCRYPTO="path"), so the minutes this build takes
   over gigabytes cost little CPU, then a sleep until the call has lasted n / PACE_MBPS microseconds. */
#include <dlfcn.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
void g_sha256(const unsigned char *p, size_t n, unsigned char out[32]) {
    static unsigned char *(*fast)(const unsigned char *, size_t, unsigned char *);
    double start = now(), late;
    if (!fast) *(void **)&fast = dlsym(dlopen(PACE_LIBCRYPTO, RTLD_NOW), "SHA256");
    fast(p, n, out);
    late = start + n / (PACE_MBPS * 1e6) - now();
    if (late > 0) { struct timespec t = {(time_t)late, (long)((late - (time_t)late) * 1e9)}; nanosleep(&t, 0); }
}
#else
void g_sha256(const unsigned char *p, size_t n, unsigned char out[32]) {
    ctx_t c;
#ifdef BUG_CRASH0
    if (n == 0) *(volatile int *)0 = 1;
#endif
#ifdef BUG_HANG
    if (n == 77) for (;;) {}
#endif
#ifdef BUG_HANG_LARGE
    if (n > (1u << 29)) for (;;) sleep(1);  /* blocked, not spinning: a hang that costs no CPU */
#endif
#ifdef BUG_HUGE
    n = (uint32_t)n;  /* a 32-bit length: right up to 4 GiB - 1, wrong from 2^32 + 1 */
#endif
#ifdef BUG_OVERREAD
    volatile unsigned char last = n ? p[n] : p[0];  /* one byte past the end */
    (void)last;
#endif
    g_init(&c); g_update(&c, p, n); g_final(&c, out);
#ifdef BUG_ALIGN7
    if ((uintptr_t)p % 64 == 7 && n >= 64) out[0] ^= 1;  /* wrong only 7 bytes past 64-byte alignment */
#endif
}
#endif
/* The blob that blob i of a batch is read from: itself, or with BUG_SWAP, blobs 1 and 2 of every
   four swapped (a lane mix-up, seen only with four or more). */
static size_t source_blob(size_t i, size_t blocks) {
#ifdef BUG_SWAP
    if (blocks >= 4 && i % 4 == 1) return i + 1;
    if (blocks >= 4 && i % 4 == 2) return i - 1;
#endif
    (void)blocks;
    return i;
}
void g_d64(unsigned char *out, const unsigned char *in, size_t blocks) {
    unsigned char tmp[32]; size_t i;
    for (i = 0; i < blocks; ++i) {
        g_sha256(in + 64 * source_blob(i, blocks), 64, tmp); g_sha256(tmp, 32, out + 32 * i);
    }
}
/* A Merkle level (hashtree's shape): the SHA-256 of each 64-byte blob; out may be in. */
void g_level(unsigned char *out, const unsigned char *in, size_t blocks) {
    unsigned char tmp[32]; size_t i;
    for (i = 0; i < blocks; ++i) {
        g_sha256(in + 64 * source_blob(i, blocks), 64, tmp); memcpy(out + 32 * i, tmp, 32);
    }
}
