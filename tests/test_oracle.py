"""libsha.oracle: correct candidates pass; a gallery of wrong ones is caught, each shrunk to the right case."""

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from libsha.oracle import suites
from libsha.oracle.cli import build_parser, main, suite_names

CC = shutil.which("cc") or shutil.which("gcc")

# A plain SHA-256 with one bug switched on per build (-DBUG_...): the gallery.
GALLERY_C = r"""
#include <stdint.h>
#include <string.h>
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
    for (i = 0; i < 32; ++i) out[i] = (unsigned char)(c->h[i / 4] >> (24 - 8 * (i % 4)));
}
void g_sha256(const unsigned char *p, size_t n, unsigned char out[32]) {
    ctx_t c;
#ifdef BUG_CRASH0
    if (n == 0) *(volatile int *)0 = 1;
#endif
#ifdef BUG_HANG
    if (n == 77) for (;;) {}
#endif
#ifdef BUG_HUGE
    n = (uint32_t)n;  /* a 32-bit length: right up to 4 GiB - 1, wrong from 2^32 + 1 */
#endif
#ifdef BUG_OVERREAD
    volatile unsigned char last = n ? p[n] : p[0];  /* one byte past the end */
    (void)last;
#endif
    g_init(&c); g_update(&c, p, n); g_final(&c, out);
}
void g_d64(unsigned char *out, const unsigned char *in, size_t blocks) {
    unsigned char tmp[32]; size_t i;
    for (i = 0; i < blocks; ++i) {
        size_t src = i;
#ifdef BUG_SWAP
        if (blocks >= 4 && i % 4 == 1) src = i + 1; else if (blocks >= 4 && i % 4 == 2) src = i - 1;
#endif
        g_sha256(in + 64 * src, 64, tmp); g_sha256(tmp, 32, out + 32 * i + 0 * src);
    }
}
"""

needs_cc = pytest.mark.skipif(CC is None or sys.platform != "linux", reason="needs a C compiler on Linux")


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gallery")
    source = folder / "gallery.c"
    source.write_text(GALLERY_C)

    def make(bug):
        library = folder / f"lib{bug or 'good'}.so"
        if not library.exists():
            flags = [f"-D{bug}"] if bug else []
            subprocess.run([CC, "-O2", "-shared", "-fPIC", *flags, str(source), "-o", str(library)], check=True)
        return str(library)

    return make


def oracle(tmp_path, *args):
    report = tmp_path / "report.json"
    code = main([*map(str, args), "--json", str(report), "--seed", "7", "--seconds", "0.3"])
    return code, json.loads(report.read_text())


def smallest(report, suite):
    (result,) = [s for s in report["suites"] if s["name"] == suite]
    return result["smallest_failure"]


@needs_cc
def test_the_correct_gallery_build_passes(build, tmp_path):
    code, report = oracle(tmp_path, "--library", build(None), "--stream", "g_init,g_update,g_final", "--ctx-size",
                          128, "--suite", "lengths", "--suite", "splits", "--suite", "guard", "--suite", "alignment")
    assert code == 0 and report["passed"]


@needs_cc
@pytest.mark.parametrize("bug, args, suite, length, extra", [
    ("BUG_PAD55", ["--symbol", "g_sha256"], "lengths", 56, {}),  # a 56-byte tail needs a second block
    ("BUG_LEN_LE", ["--symbol", "g_sha256"], "lengths", 1, {}),
    ("BUG_SPLIT63", ["--stream", "g_init,g_update,g_final", "--ctx-size", "128"], "splits", 64, {"splits": [63]}),
    ("BUG_OVERREAD", ["--symbol", "g_sha256"], "guard", 0, {"status": "crash", "guard": True}),
    ("BUG_CRASH0", ["--symbol", "g_sha256"], "lengths", 0, {"status": "crash"}),
    ("BUG_HANG", ["--symbol", "g_sha256", "--timeout", "1"], "lengths", 77, {"status": "hang"}),
    ("BUG_SWAP", ["--d64", "g_d64"], "d64", 256, {"d64": True}),
    ("BUG_LEN32", ["--symbol", "g_sha256"], "large", (1 << 29) + 1, {}),
    ("BUG_HUGE", ["--symbol", "g_sha256"], "large", (1 << 32) + 1, {}),
])
def test_each_wrong_build_is_caught_at_the_right_case(build, tmp_path, bug, args, suite, length, extra):
    code, report = oracle(tmp_path, "--library", build(bug), *args, "--suite", suite)
    assert code == 1 and not report["passed"]
    case = smallest(report, suite)
    assert case["length"] == length, case
    for key, value in extra.items():
        assert case[key] == value, case


def wrong_at_56(data):
    """A Python candidate with its padding bug where the length field no longer fits: 56 bytes."""
    return hashlib.sha256(data + b"\0" if len(data) % 64 == 56 else data).digest()


def test_a_wrong_python_callable_is_caught_with_a_reproducer(tmp_path, capsys):
    code, report = oracle(tmp_path, "--callable", "test_oracle:wrong_at_56", "--suite", "lengths")
    assert code == 1 and smallest(report, "lengths")["length"] == 56
    out = capsys.readouterr().out
    assert "from test_oracle import wrong_at_56" in out and "def test_sha256_case():" in out


@pytest.mark.parametrize("args", [
    ["--callable", "hashlib:sha256"],
    ["--callable", "libsha:sha256"],
])
def test_correct_python_candidates_pass(tmp_path, args):
    code, report = oracle(tmp_path, *args, "--suite", "lengths", "--suite", "random")
    assert code == 0 and report["passed"]


@pytest.mark.skipif(shutil.which("sha256sum") is None, reason="needs sha256sum (coreutils)")
def test_sha256sum_passes_as_a_command(tmp_path):
    code, report = oracle(tmp_path, "--command", "sha256sum", "--suite", "lengths")
    assert code == 0 and report["suites"][0]["passed"] == 1101


def libcrypto():
    import ctypes.util

    return ctypes.util.find_library("crypto")


@pytest.mark.skipif(libcrypto() is None, reason="needs OpenSSL's libcrypto")
def test_openssl_passes_as_a_symbol_and_as_a_stream(tmp_path):
    code, _ = oracle(tmp_path, "--library", libcrypto(), "--symbol", "SHA256", "--suite", "lengths", "--suite", "guard")
    assert code == 0
    code, _ = oracle(tmp_path, "--library", libcrypto(), "--stream", "SHA256_Init,SHA256_Update,SHA256_Final",
                     "--ctx-size", 112, "--final-args", "out,ctx", "--suite", "splits", "--suite", "lengths")
    assert code == 0


def test_libsha_passes_every_default_suite(tmp_path):
    from libsha import _native

    library = _native.lib()._name
    code, report = oracle(tmp_path, "--library", library, "--stream",
                          "libsha_sha256_init,libsha_sha256_update,libsha_sha256_final", "--ctx-size",
                          _native.lib().libsha_sha256_ctx_size())
    assert code == 0, report
    assert {s["name"]: s["note"] for s in report["suites"]}["d64"] == "needs a --d64 candidate"
    code, report = oracle(tmp_path, "--library", library, "--d64", "libsha_sha256d64", "--suite", "d64")
    assert code == 0
    code, report = oracle(tmp_path, "--library", library, "--symbol", "libsha_sha256", "--suite", "lengths",
                          "--suite", "alignment", "--suite", "guard")
    assert code == 0


@pytest.mark.parametrize("args, words", [
    ([], "name a candidate"),
    (["--symbol", "x"], "--symbol needs --library"),
    (["--library", "x.so", "--stream", "a,b"], "INIT,UPDATE,FINAL"),
    (["--library", "x.so", "--stream", "a,b,c"], "--ctx-size"),
    (["--callable", "nocolon"], "MODULE:FUNCTION"),
    (["--command", "x", "--library", "y"], "--library goes with"),
])
def test_bad_usage_exits_2(capsys, args, words):
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2 and words in capsys.readouterr().err


@pytest.mark.parametrize("args, expected", [
    (["--suite", "lengths", "--large"], ["lengths", "large"]),  # --large used to be dropped beside --suite
    (["--large"], [*suites.DEFAULT, "large"]),
    (["--suite", "large", "--large"], ["large"]),
    (["--suite", "splits", "--suite", "nist", "--suite", "splits"], ["splits", "nist"]),
    ([], list(suites.DEFAULT)),
])
def test_the_suites_named_and_large_are_all_run(args, expected):
    parsed = build_parser().parse_args(["--callable", "m:f", *args])
    assert suite_names(parsed) == expected


def test_a_candidate_that_cannot_load_exits_2(tmp_path, capsys):
    assert main(["--library", str(tmp_path / "missing.so"), "--symbol", "f"]) == 2
    assert "cannot load" in capsys.readouterr().err
    assert main(["--callable", "no_such_module_here:f"]) == 2
    assert "cannot import" in capsys.readouterr().err


def test_the_module_runs_as_a_command(tmp_path):
    result = subprocess.run([sys.executable, "-m", "libsha.oracle", "--callable", "hashlib:sha256", "--suite",
                             "lengths", "--seed", "3"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0 and "seed: 3" in result.stdout and "all cases passed" in result.stdout


def returns_an_int(data):
    return len(data)


def test_a_callable_returning_the_wrong_type_fails_the_usage_check(capsys):
    assert main(["--callable", "test_oracle:returns_an_int", "--suite", "lengths"]) == 2
    err = capsys.readouterr().err
    assert "the usage check failed" in err and "returned int 3, not 32 bytes" in err
