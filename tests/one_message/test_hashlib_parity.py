"""libsha.sha256 as hashlib.sha256's drop-in: what CPython's test_hashlib asks of a hash object
(copy, update after digest, name, sizes, usedforsecurity, TypeError for what is not a buffer), and
the states the object passes through, each checked against hashlib at its borders."""

import hashlib

import pytest

import libsha
from libsha import _binding
from libsha._one import sha256 as _hash
from support.data import pattern251
from support.binding import ctypes_internals

pytestmark = [pytest.mark.core, pytest.mark.binding]


def test_from_libsha_import_sha256_reads_as_hashlib():
    from libsha import sha256

    assert sha256(b"abc").hexdigest() == hashlib.sha256(b"abc").hexdigest()
    assert sha256().hexdigest() == hashlib.sha256().hexdigest()
    assert sha256(data=b"abc").digest() == hashlib.sha256(b"abc").digest()
    assert isinstance(sha256(), sha256)


def test_name_and_sizes_match_hashlib():
    ours, theirs = libsha.sha256(), hashlib.sha256()
    assert (ours.name, ours.digest_size, ours.block_size) == (theirs.name, theirs.digest_size, theirs.block_size)
    assert (libsha.sha256.digest_size, libsha.sha256.block_size) == (32, 64)


def test_usedforsecurity_is_keyword_only_and_changes_nothing():
    assert libsha.sha256(b"abc", usedforsecurity=False).digest() == hashlib.sha256(b"abc").digest()
    assert libsha.sha256(usedforsecurity=True).digest() == hashlib.sha256().digest()
    with pytest.raises(TypeError):
        libsha.sha256(b"abc", False)  # hashlib's is keyword-only too


@pytest.mark.parametrize("bad", ["abc", None, 1, 1.5, [1, 2], {"a": 1}, object()],
                         ids=["str", "None", "int", "float", "list", "dict", "object"])
def test_what_is_not_a_buffer_raises_type_error_as_hashlib(bad):
    with pytest.raises(TypeError):
        hashlib.sha256(bad)
    with pytest.raises(TypeError):
        libsha.sha256(bad)
    with pytest.raises(TypeError):
        libsha.sha256().update(bad)
    with pytest.raises(TypeError):
        libsha.sha256_digest(bad)
    with pytest.raises(TypeError):
        libsha.sha256_hexdigest(bad)


def test_a_failed_update_leaves_the_object_as_it_was():
    h = libsha.sha256(b"ab")
    with pytest.raises(TypeError):
        h.update("c")
    h.update(b"c")
    assert h.digest() == hashlib.sha256(b"abc").digest()


def test_update_after_digest_and_digest_again():
    h = libsha.sha256(b"a")
    first = h.digest()
    assert h.digest() == first and h.hexdigest() == first.hex()
    h.update(b"bc")
    assert h.digest() == hashlib.sha256(b"abc").digest()


def test_update_takes_one_positional_argument():
    with pytest.raises(TypeError):
        libsha.sha256().update()
    with pytest.raises(TypeError):
        libsha.sha256().update(b"a", b"b")


def test_one_shots_equal_the_object():
    for n in (0, 1, 31, 32, 55, 56, 64, 511, 512, 2047, 2048, 4096, 70000):
        data = pattern251(n, n)
        expected = hashlib.sha256(data)
        assert libsha.sha256_digest(data) == expected.digest(), n
        assert libsha.sha256_hexdigest(data) == expected.hexdigest(), n
        assert libsha.sha256_hexdigest(bytearray(data)) == expected.hexdigest(), n
        assert libsha.sha256_hexdigest(memoryview(data)) == expected.hexdigest(), n


def test_new_reads_as_hashlib_new_for_its_one_algorithm():
    assert libsha.new("sha256", b"abc").hexdigest() == hashlib.new("sha256", b"abc").hexdigest()
    assert libsha.new("SHA256").digest() == hashlib.new("SHA256").digest()
    assert libsha.new(name="sha256", data=b"abc", usedforsecurity=False).digest() == hashlib.sha256(b"abc").digest()
    assert isinstance(libsha.new("sha256"), libsha.sha256)
    # The names docs/python.md gives, in any case; hashlib's own answer for the others depends on its OpenSSL.
    for name in ("sha256", "SHA256", "sha-256", "SHA-256", "sha2-256", "Sha2-256"):
        assert libsha.new(name, b"abc").digest() == hashlib.sha256(b"abc").digest(), name
    for name in ("sha_256", "sha224", "sha256 ", "sha2_256", "sha", ""):
        with pytest.raises(ValueError, match="unsupported hash type"):
            libsha.new(name)
    with pytest.raises(ValueError, match="unsupported hash type md5"):
        libsha.new("md5")
    with pytest.raises(TypeError):
        libsha.new(b"sha256")
    with pytest.raises(TypeError):
        libsha.new("sha256", "text")


# The constructor's bytes, below and above a block, the size from which the accelerator releases the
# GIL, and a long message.
# Where the accelerator starts releasing the GIL (the ctypes path always does), asked of it.
_GIL_BORDER = (libsha._accel.GIL_RELEASE_BYTES,) if _binding.binding() == "accelerated" else ()
BORDERS = sorted({n + d for n in (64, *_GIL_BORDER, 64 * 1024) for d in (-1, 0, 1)} | {0})


@pytest.mark.parametrize("n", BORDERS)
def test_constructor_data_at_each_border_then_updates_and_copies(n):
    data = pattern251(n, 5)
    h = libsha.sha256(data)
    c = h.copy()
    assert h.hexdigest() == hashlib.sha256(data).hexdigest()
    assert h.digest() == hashlib.sha256(data).digest()  # a second digest of a held message
    for extra in (b"", b"x", pattern251(700, 9)):
        h.update(extra)
        data += extra
        assert h.digest() == hashlib.sha256(data).digest(), (n, len(extra))
    assert c.digest() == hashlib.sha256(pattern251(n, 5)).digest()
    d = c.copy()
    d.update(bytearray(b"tail"))
    assert d.digest() == hashlib.sha256(pattern251(n, 5) + b"tail").digest()


@pytest.mark.parametrize("code", [
    "print(libsha.sha256(b'abc').hexdigest())", "print(libsha.sha256(bytes(70000)).hexdigest())",
    "print(libsha.sha256(bytearray(3000)).hexdigest())", "print(libsha.sha256(bytes(9000)).copy().hexdigest())",
    "h = libsha.sha256()\nh.update(b'x' * 600)\nprint(h.hexdigest())", "print(libsha.sha256_hexdigest(b'abc'))",
    "print(libsha.new('sha256', bytes(70000)).hexdigest())"])
def test_each_path_works_as_the_first_use_of_the_library(code):
    # In a fresh interpreter: the path must load the library itself before it needs anything of it.
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", "import libsha\n" + code], capture_output=True, text=True, cwd="/")
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.strip()) == 64



def test_not_subclassable():
    # (hashlib's constructors make no instance of a subclass either: hashlib.sha256 is a function.)
    with pytest.raises(TypeError, match="not an acceptable base type"):
        type("Mine", (libsha.sha256,), {})


def test_the_first_update_keeps_the_object_a_sha256():
    h = libsha.sha256(b"ab")
    h.update(b"c")
    assert isinstance(h, libsha.sha256) and isinstance(h.copy(), libsha.sha256)
    assert (h.name, h.digest_size, h.block_size) == ("sha256", 32, 64) and "<libsha.sha256 object" in repr(h)


def test_a_mutable_buffer_is_copied_at_once():
    buffer = bytearray(b"abc")
    h = libsha.sha256(buffer)
    buffer[:] = b"xyz"
    assert h.digest() == hashlib.sha256(b"abc").digest()
