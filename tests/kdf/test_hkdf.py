"""HKDF-SHA256: RFC 5869's cases, cryptography's HKDF on random parameters on every runnable row, the
one-use objects, the C contract and bad input."""

import ctypes

import pytest

import libsha
from libsha import _errors, _native
from libsha.reference import hkdf as reference_hkdf
from libsha.reference import hkdf_expand as reference_expand
from libsha.reference import nist
from support.data import buffer_kinds

pytestmark = [pytest.mark.core, pytest.mark.binding]

lib = _native.lib()
ROWS = [impl.name for impl in libsha.dispatch.implementations() if impl.runnable]


@pytest.fixture(params=ROWS)
def row(request):
    with libsha.dispatch.using(request.param):
        yield request.param


def test_rfc_5869_cases(row):
    for ikm, salt, info, length, prk, okm in nist.hkdf_cases():
        assert libsha.hkdf_extract(salt, ikm) == prk
        assert libsha.hkdf_expand(prk, length, info) == okm
        assert libsha.hkdf(ikm, length, salt, info) == okm
        assert libsha.hkdf(bytearray(ikm), length, memoryview(salt), bytearray(info)) == okm
        assert libsha.HKDF("sha256", length, salt or None, info).derive(ikm) == okm
        assert reference_hkdf(ikm, salt, info, length) == okm


def test_random_parameters_against_cryptography(row, rng):
    try:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf import hkdf as kdf
    except ImportError as why:  # not only missing: under qemu, a host's copy of another architecture
        pytest.skip(f"cryptography is not usable here ({why})")
    for _ in range(40):
        ikm = rng.randbytes(rng.randrange(200))
        salt = rng.choice([None, b"", rng.randbytes(rng.randrange(1, 200))])
        info = rng.choice([None, b"", rng.randbytes(rng.randrange(1, 300))])
        length = rng.choice([0, 1, 31, 32, 33, 8159, 8160, rng.randrange(8161)])
        theirs = kdf.HKDF(hashes.SHA256(), length, salt, info).derive(ikm)
        assert libsha.hkdf(ikm, length, salt, info) == theirs, (len(ikm), salt, info, length)
        assert libsha.HKDF(hashes.SHA256(), length, salt, info).derive(ikm) == theirs
        prk = libsha.hkdf_extract(salt, ikm)
        assert libsha.hkdf_expand(prk, length, info) == theirs
        assert libsha.HKDFExpand(hashes.SHA256(), length, info).derive(prk) == \
            kdf.HKDFExpand(hashes.SHA256(), length, info).derive(prk)


def test_expand_takes_a_key_of_any_length():
    for prk_len in (0, 1, 31, 32, 64, 65, 200):
        prk = bytes(range(prk_len))
        assert libsha.hkdf_expand(prk, 100, b"info") == reference_expand(prk, b"info", 100)


def test_every_buffer_kind():
    ikm, salt, info = bytes(range(40)), bytes(range(50, 90)), bytes(range(100, 150))
    want = reference_hkdf(ikm, salt, info, 70)
    for kind, make in buffer_kinds():
        assert libsha.hkdf(make(ikm), 70, make(salt), make(info)) == want, kind
        assert libsha.hkdf_expand(make(libsha.hkdf_extract(make(salt), make(ikm))), 70, make(info)) == want, kind


def test_objects_derive_once_and_verify():
    h = libsha.HKDF("sha256", 32, b"salt", b"info")
    key = h.derive(b"ikm")
    with pytest.raises(libsha.AlreadyFinalized):
        h.derive(b"ikm")
    libsha.HKDF("sha256", 32, b"salt", b"info").verify(b"ikm", key)
    with pytest.raises(libsha.InvalidKey):
        libsha.HKDF("sha256", 32, b"salt", b"info").verify(b"other", key)
    e = libsha.HKDFExpand("sha256", 32, b"info")
    e.derive(b"k" * 32)
    with pytest.raises(libsha.AlreadyFinalized):
        e.derive(b"k" * 32)


@pytest.mark.parametrize("call, error, words", [
    (lambda: libsha.hkdf(b"k", 8161), ValueError, "Cannot derive keys larger than 8160 octets"),
    (lambda: libsha.hkdf_expand(b"k", 8161), ValueError, "larger than 8160"),
    (lambda: libsha.hkdf(b"k", -1), ValueError, "0 or more"),
    (lambda: libsha.hkdf(b"k", 32.0), TypeError, "length must be an int"),
    (lambda: libsha.hkdf(b"k", True), TypeError, "length must be an int"),
    (lambda: libsha.hkdf("k"), TypeError, "key_material is a str"),
    (lambda: libsha.hkdf(b"k", 32, "salt"), TypeError, "salt is a str"),
    (lambda: libsha.hkdf(b"k", 32, None, "info"), TypeError, "info is a str"),
    (lambda: libsha.hkdf(None), TypeError, "key_material"),
    (lambda: libsha.hkdf_extract(b"s", "k"), TypeError, "key_material is a str"),
    (lambda: libsha.hkdf_expand("prk"), TypeError, "prk is a str"),
    (lambda: libsha.HKDF("sha1", 32, None, None), ValueError, "HKDF-SHA256 only"),
    (lambda: libsha.HKDF("sha256", 9000, None, None), ValueError, "8160"),
    (lambda: libsha.HKDFExpand(object(), 32, None), ValueError, "HKDF-SHA256 only"),
])
def test_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_the_c_contract():
    out = ctypes.create_string_buffer(b"\xaa" * 64, 64)
    assert lib.libsha_hkdf_sha256(out, 8161, None, 0, b"k", 1, None, 0) == _errors.ERR_ARGUMENT
    assert lib.libsha_hkdf_sha256(out, 32, None, 1, b"k", 1, None, 0) == _errors.ERR_NULL
    assert lib.libsha_hkdf_sha256(out, 32, None, 0, None, 1, None, 0) == _errors.ERR_NULL
    assert lib.libsha_hkdf_sha256(out, 32, None, 0, b"k", 1, None, 1) == _errors.ERR_NULL
    assert lib.libsha_hkdf_sha256(None, 32, None, 0, b"k", 1, None, 0) == _errors.ERR_NULL
    assert lib.libsha_hkdf_sha256_expand(out, 8161, b"k", 1, None, 0) == _errors.ERR_ARGUMENT
    assert lib.libsha_hkdf_sha256_expand(out, 32, None, 1, None, 0) == _errors.ERR_NULL
    assert lib.libsha_hkdf_sha256_extract(None, None, 0, b"k", 1) == _errors.ERR_NULL
    assert out.raw == b"\xaa" * 64  # nothing written on error
    assert lib.libsha_hkdf_sha256(None, 0, None, 0, None, 0, None, 0) == _errors.OK
    # out may overlap every input: derived in place, as if copied first
    buffer = ctypes.create_string_buffer(bytes(range(96)), 96)
    address = ctypes.addressof(buffer)
    want = reference_hkdf(bytes(range(32)), bytes(range(32, 64)), bytes(range(64, 96)), 96)
    assert lib.libsha_hkdf_sha256(address, 96, address + 32, 32, address, 32, address + 64, 32) == _errors.OK
    assert buffer.raw == want
