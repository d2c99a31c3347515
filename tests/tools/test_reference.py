"""The pure-Python reference: its constants, its padding, and hashlib agreement."""

import hashlib
import os
import struct
import subprocess
import sys

import pytest

from libsha import reference
from support.data import pattern251
from support.paths import ROOT


def primes(count):
    found = []
    n = 2
    while len(found) < count:
        if all(n % p for p in found):
            found.append(n)
        n += 1
    return found


def fractional_bits_of_root(n, k):
    """The first 32 bits of the fractional part of n ** (1/k), exactly."""
    scaled = n << (32 * k)  # (n * 2^(32k)) ** (1/k) = n ** (1/k) * 2^32
    lo, hi = 0, 1 << 40
    while lo < hi - 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if mid**k <= scaled else (lo, mid)
    return lo & 0xFFFFFFFF


def test_round_constants_are_cube_roots_of_primes():
    assert reference.K == tuple(fractional_bits_of_root(p, 3) for p in primes(64))


def test_initial_hash_is_square_roots_of_primes():
    assert reference.H0 == tuple(fractional_bits_of_root(p, 2) for p in primes(8))


@pytest.mark.parametrize("n", range(0, 200))
def test_padding_reaches_a_block_border(n):
    pad = reference.padding(n)
    assert (n + len(pad)) % 64 == 0 and 9 <= len(pad) <= 72
    assert pad[0] == 0x80 and struct.unpack(">Q", pad[-8:])[0] == 8 * n


def test_against_hashlib_random_lengths(rng):
    for n in list(range(0, 130)) + [1000, 4097]:
        data = rng.randbytes(n)
        assert reference.sha256(data) == hashlib.sha256(data).digest(), n


def test_streaming_and_copy():
    h = reference.Sha256(b"ab")
    c = h.copy()
    h.update(b"c")
    assert h.hexdigest() == hashlib.sha256(b"abc").hexdigest()
    assert c.digest() == hashlib.sha256(b"ab").digest()


def test_compress_rejects_partial_blocks():
    with pytest.raises(ValueError):
        reference.compress(reference.H0, b"short")


def test_rejects_str():
    with pytest.raises(TypeError):
        reference.sha256("abc")


def test_generated_c_tables_are_current():
    # The C self-test's known answers and the padding schedule come from this reference.
    root = ROOT
    tool = root / "tools" / "gen_tables.py"
    if not tool.exists():
        pytest.skip("tools/ is not present (tests run outside a source checkout)")
    result = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_trace_matches_nist_s_worked_example():
    # FIPS 180-4's example computation for "abc" (csrc.nist.gov, SHA256.pdf): rounds 0 and 63.
    from libsha.reference.trace import trace

    text = trace(b"abc")
    assert "t= 0: 5D6AEBCD 6A09E667 BB67AE85 3C6EF372 FA2A4622 510E527F 9B05688C 1F83D9AB" in text
    assert "t=63: 506E3058 D39A2165 04D24D6C B85E2CE9 5EF50F24 FB121210 948D25B6 961F4894" in text
    assert "W[15] = 00000018" in text and "W[63] = " in text
    assert "H[0] = 506E3058 + 6A09E667 = BA7816BF" in text
    assert text.splitlines()[-1] == "Digest: " + hashlib.sha256(b"abc").hexdigest()


@pytest.mark.parametrize("n", [0, 55, 56, 64, 119, 200])
def test_trace_digest_and_blocks(n):
    from libsha.reference.trace import trace

    message = pattern251(n, 3)
    text = trace(message)
    blocks = (n + 8) // 64 + 1
    assert text.count("working variables after each round") == blocks
    assert text.count("t=63:") == blocks and text.count("W[63] =") == blocks
    assert text.splitlines()[-1] == "Digest: " + hashlib.sha256(message).hexdigest()


def test_trace_command_line(tmp_path):
    def run(*args):
        # From tmp_path: in the checkout, its libsha/ (without reference/) would shadow the installed package.
        return subprocess.run([sys.executable, "-m", "libsha.reference", *args], capture_output=True, text=True,
                              cwd=tmp_path)

    by_text, by_hex = run("--trace", "é"), run("--hex", "c3a9")
    assert by_text.returncode == 0 and by_text.stdout == by_hex.stdout
    assert by_text.stdout.rstrip().endswith(hashlib.sha256("é".encode()).hexdigest())
    for bad in (["--hex", "zz"], [], ["--trace", "a", "--hex", "00"]):
        result = run(*bad)
        assert result.returncode == 2 and "usage:" in result.stderr
