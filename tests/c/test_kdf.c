/*
 * Key derivation on every row this CPU runs (and, through ctest, on aarch64 under qemu and in the
 * Windows build under wine): RFC 7914's PBKDF2-HMAC-SHA256 vectors and RFC 5869's HKDF-SHA256 cases
 * (read from reference/vectors, the files the Python tests read); keys of every length around the
 * block and lane counts, one at a time and many at once with different passwords, salts and
 * lengths in every lane position, against the 'standard' row (the Python tests hold that row to
 * hashlib and OpenSSL); the argument checks, nothing written on error.
 *   test_kdf VECTOR_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libsha_dispatch.h"
#include "test_check.h"
#include "test_rng.h"

/* The records of a vectors file ("Name = hex" lines, a blank line between records), up to 4 of
 * up to 8 fields each, values as bytes. */
struct field {
    char name[8];
    unsigned char value[256];
    size_t len;
};
struct record {
    struct field fields[8];
    int n;
};

static int read_records(const char *dir, const char *file, struct record records[4])
{
    char path[1024], line[1024];
    FILE *f;
    int count = 0;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if ((f = fopen(path, "r")) == NULL) {
        printf("cannot open %s\n", path);
        exit(2);
    }
    memset(records, 0, 4 * sizeof records[0]);
    while (fgets(line, sizeof line, f) != NULL) {
        char *eq = strchr(line, '='), *value, *end;
        struct field *fl;
        if (line[0] == '#' || eq == NULL)
            continue;
        if (strncmp(line, "Count", 5) == 0) {
            ++count;
            continue;
        }
        if (count == 0 || count > 4 || records[count - 1].n == 8)
            continue;
        fl = &records[count - 1].fields[records[count - 1].n++];
        *eq = '\0';
        sscanf(line, "%7s", fl->name);
        value = eq + 1;
        while (*value == ' ')
            ++value;
        for (end = value; *end && *end != '\n' && *end != '\r' && *end != ' '; ++end)
            ;
        *end = '\0';
        if (strcmp(fl->name, "c") == 0 || strcmp(fl->name, "L") == 0)
            fl->len = (size_t)strtoul(value, NULL, 10); /* a number, not bytes */
        else
            fl->len = unhex(value, fl->value);
    }
    fclose(f);
    return count;
}

static const struct field *field(const struct record *r, const char *name)
{
    int i;
    for (i = 0; i < r->n; ++i)
        if (strcmp(r->fields[i].name, name) == 0)
            return &r->fields[i];
    printf("vectors: no field %s\n", name);
    exit(2);
}

static void known_answers(const char *impl, const struct record pbkdf2[], int np, const struct record hkdf[],
                          int nh)
{
    unsigned char out[256], prk[32];
    int i;
    for (i = 0; i < np; ++i) {
        const struct field *p = field(&pbkdf2[i], "P"), *s = field(&pbkdf2[i], "S"), *dk = field(&pbkdf2[i], "DK");
        check(libsha_pbkdf2_hmac_sha256(out, dk->len, p->value, p->len, s->value, s->len, field(&pbkdf2[i], "c")->len)
                      == LIBSHA_OK
                  && memcmp(out, dk->value, dk->len) == 0,
              impl, "RFC 7914 vector", (size_t)i + 1);
    }
    for (i = 0; i < nh; ++i) {
        const struct field *ikm = field(&hkdf[i], "IKM"), *salt = field(&hkdf[i], "salt");
        const struct field *info = field(&hkdf[i], "info"), *okm = field(&hkdf[i], "OKM");
        size_t length = field(&hkdf[i], "L")->len;
        check(libsha_hkdf_sha256_extract(prk, salt->value, salt->len, ikm->value, ikm->len) == LIBSHA_OK
                  && memcmp(prk, field(&hkdf[i], "PRK")->value, 32) == 0,
              impl, "RFC 5869 PRK", (size_t)i + 1);
        check(libsha_hkdf_sha256_expand(out, length, prk, 32, info->value, info->len) == LIBSHA_OK
                  && memcmp(out, okm->value, length) == 0,
              impl, "RFC 5869 OKM (expand)", (size_t)i + 1);
        check(libsha_hkdf_sha256(out, length, salt->value, salt->len, ikm->value, ikm->len, info->value, info->len)
                      == LIBSHA_OK
                  && memcmp(out, okm->value, length) == 0,
              impl, "RFC 5869 OKM", (size_t)i + 1);
    }
}

#define MAX_KEYS 40
#define MAX_DKLEN 300
static unsigned char bytes[MAX_KEYS][2][200];

/* Keys on `impl` against the same keys on 'standard': one at a time and all at once. */
static void against_standard(const char *impl, unsigned long long seed)
{
    static unsigned char mine[MAX_KEYS * MAX_DKLEN], many[MAX_KEYS * MAX_DKLEN], theirs[MAX_KEYS * MAX_DKLEN];
    static const size_t counts[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, MAX_KEYS};
    const void *pw[MAX_KEYS], *salts[MAX_KEYS];
    size_t pw_lens[MAX_KEYS], salt_lens[MAX_KEYS], c, k, i;
    rng_state = seed;
    for (c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        size_t n = counts[c], dklen = 1 + rng_next() % MAX_DKLEN;
        unsigned iterations = 1 + (unsigned)(rng_next() % 40);
        if (n > 8)
            dklen = 1 + rng_next() % 70; /* many keys of a few blocks each */
        for (k = 0; k < n; ++k) {
            for (i = 0; i < 200; ++i)
                bytes[k][0][i] = (unsigned char)rng_next(), bytes[k][1][i] = (unsigned char)rng_next();
            pw[k] = bytes[k][0], pw_lens[k] = rng_next() % 150;
            salts[k] = bytes[k][1], salt_lens[k] = rng_next() % 150;
        }
        libsha_select("standard");
        for (k = 0; k < n; ++k)
            libsha_pbkdf2_hmac_sha256(theirs + k * dklen, dklen, pw[k], pw_lens[k], salts[k], salt_lens[k], iterations);
        libsha_select(impl);
        for (k = 0; k < n; ++k)
            libsha_pbkdf2_hmac_sha256(mine + k * dklen, dklen, pw[k], pw_lens[k], salts[k], salt_lens[k], iterations);
        check(libsha_pbkdf2_hmac_sha256_many(many, dklen, pw, pw_lens, salts, salt_lens, n, iterations) == LIBSHA_OK,
              impl, "many keys", n);
        check(memcmp(mine, theirs, n * dklen) == 0, impl, "one key at a time = standard's", n);
        check(memcmp(many, theirs, n * dklen) == 0, impl, "many keys at once = standard's", n);
    }
    /* One key of every length around the lanes: its blocks are chains side by side. */
    for (k = 1; k <= 18 * 32 + 1; k += (k % 32 == 0 || k % 32 == 1 || k % 32 == 31) ? 1 : 29) {
        libsha_select("standard");
        libsha_pbkdf2_hmac_sha256(theirs, k, "password", 8, "salt", 4, 3);
        libsha_select(impl);
        check(libsha_pbkdf2_hmac_sha256(mine, k, "password", 8, "salt", 4, 3) == LIBSHA_OK
                  && memcmp(mine, theirs, k) == 0,
              impl, "key length", k);
    }
}

static void refusals(void)
{
    unsigned char out[64], before[64];
    const void *pw[2] = {"a", NULL}, *salts[2] = {"s", "s"};
    size_t lens[2] = {1, 1};
    memset(out, 0xa5, sizeof out);
    memcpy(before, out, sizeof out);
    check(libsha_pbkdf2_hmac_sha256(out, 32, "p", 1, "s", 1, 0) == LIBSHA_ERR_ARGUMENT, "-", "0 iterations", 0);
    check(libsha_pbkdf2_hmac_sha256(out, 32, NULL, 1, "s", 1, 1) == LIBSHA_ERR_NULL, "-", "NULL password", 0);
    check(libsha_pbkdf2_hmac_sha256(NULL, 32, "p", 1, "s", 1, 1) == LIBSHA_ERR_NULL, "-", "NULL out", 0);
    check(libsha_pbkdf2_hmac_sha256(out, 32, out + 16, 8, "s", 1, 1) == LIBSHA_ERR_ARGUMENT, "-", "overlap", 0);
    check(libsha_pbkdf2_hmac_sha256_many(out, 32, pw, lens, salts, lens, 2, 1) == LIBSHA_ERR_NULL, "-",
          "a NULL password among many", 0);
    check(libsha_hkdf_sha256(out, 8161, NULL, 0, "k", 1, NULL, 0) == LIBSHA_ERR_ARGUMENT, "-", "HKDF past 8160", 0);
    check(libsha_hkdf_sha256_expand(out, 8161, "k", 1, NULL, 0) == LIBSHA_ERR_ARGUMENT, "-", "expand past 8160", 0);
    check(libsha_hkdf_sha256_expand(out, 32, NULL, 1, NULL, 0) == LIBSHA_ERR_NULL, "-", "NULL prk", 0);
    check(memcmp(out, before, sizeof out) == 0, "-", "nothing written on error", 0);
    check(libsha_pbkdf2_hmac_sha256(NULL, 0, "p", 1, "s", 1, 1) == LIBSHA_OK, "-", "an empty key", 0);
    check(libsha_hkdf_sha256(NULL, 0, NULL, 0, NULL, 0, NULL, 0) == LIBSHA_OK, "-", "an empty HKDF", 0);
}

int main(int argc, char **argv)
{
    struct record pbkdf2[4], hkdf[4];
    int np, nh, runnable;
    size_t i;
    const char *name;
    unsigned long long seed = 0x9e3779b97f4a7c15ULL;

    if (argc != 2) {
        fprintf(stderr, "usage: %s VECTOR_DIR\n", argv[0]);
        return 2;
    }
    if (getenv("LIBSHA_TEST_SEED") != NULL)
        seed = strtoull(getenv("LIBSHA_TEST_SEED"), NULL, 10);
    printf("seed %llu (LIBSHA_TEST_SEED replays it)\n", seed);
    np = read_records(argv[1], "PBKDF2_HMAC_SHA256_RFC7914.txt", pbkdf2);
    nh = read_records(argv[1], "HKDF_SHA256_RFC5869.txt", hkdf);
    check(np == 2 && nh == 3, "-", "the vectors files' records", (size_t)(np * 10 + nh));
    for (i = 0; (name = libsha_implementation_at(i, &runnable)) != NULL; ++i) {
        char impl[128];
        if (!runnable)
            continue;
        snprintf(impl, sizeof impl, "%s", name);
        check(libsha_select(impl) == LIBSHA_OK, impl, "select", 0);
        known_answers(impl, pbkdf2, np, hkdf, nh);
        against_standard(impl, seed + i);
        printf("%s: done\n", impl);
    }
    refusals();
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed != 0;
}
