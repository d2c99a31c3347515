"""The pure-Python reference: its constants, its padding, and hashlib agreement."""

import hashlib
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from libsha import reference


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


def test_against_hashlib_random_lengths():
    for n in list(range(0, 130)) + [1000, 4097]:
        data = os.urandom(n)
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
    root = Path(__file__).resolve().parent.parent
    tool = root / "tools" / "gen_tables.py"
    if not tool.exists():
        pytest.skip("tools/ is not present (tests run outside a source checkout)")
    result = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
