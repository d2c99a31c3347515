"""PBKDF2-HMAC-SHA256: RFC 7914's vectors, hashlib on random parameters on every runnable row (one
key, its blocks in lanes, many keys with different passwords, salts and lengths in every lane
position), the C contract, and hashlib's refusals."""

import ctypes
import hashlib

import pytest

import libsha
from libsha import _errors, _native
from libsha.reference import nist, pbkdf2_hmac_sha256
from support.data import WIDEST_LANES, buffer_kinds

pytestmark = [pytest.mark.core, pytest.mark.binding]

lib = _native.lib()
ROWS = [impl.name for impl in libsha.dispatch.implementations() if impl.runnable]


def expected(password, salt, iterations, dklen=32):
    return hashlib.pbkdf2_hmac("sha256", password, salt, iterations, dklen)


@pytest.fixture(params=ROWS)
def row(request):
    with libsha.dispatch.using(request.param):
        yield request.param


def test_rfc_7914_vectors(row):
    for password, salt, iterations, key in nist.pbkdf2_cases():  # 80,000 iterations: under 0.1 s on any row
        assert libsha.pbkdf2_hmac("sha256", password, salt, iterations, len(key)) == key


def test_the_pure_python_reference_gives_the_first_vector():
    password, salt, iterations, key = nist.pbkdf2_cases()[0]
    assert pbkdf2_hmac_sha256(password, salt, iterations, len(key)) == key
    assert pbkdf2_hmac_sha256(b"pw" * 40, b"s" * 70, 3, 70) == expected(b"pw" * 40, b"s" * 70, 3, 70)


def test_random_parameters_against_hashlib(row, rng):
    # Passwords past a block (hashed first), salts past a block, keys of one block, several and a
    # part of one; few iterations here, many below.
    for _ in range(60):
        password = rng.randbytes(rng.choice([0, 1, 31, 32, 55, 56, 63, 64, 65, rng.randrange(300)]))
        salt = rng.randbytes(rng.choice([0, 1, 51, 52, 55, 56, 59, 60, 64, rng.randrange(300)]))
        iterations = rng.choice([1, 2, 3, rng.randrange(1, 60)])
        dklen = rng.choice([1, 31, 32, 33, 64, 65, rng.randrange(1, 300)])
        assert libsha.pbkdf2_hmac("sha256", password, salt, iterations, dklen) == \
            expected(password, salt, iterations, dklen), (len(password), len(salt), iterations, dklen)


def test_long_chains_against_hashlib(row, rng):
    for dklen in (32, 64, 32 * WIDEST_LANES + 5):
        password, salt = rng.randbytes(rng.randrange(100)), rng.randbytes(rng.randrange(100))
        iterations = rng.randrange(1000, 3001)
        assert libsha.pbkdf2_hmac("sha256", password, salt, iterations, dklen) == \
            expected(password, salt, iterations, dklen), (iterations, dklen)


def test_many_keys_each_in_its_lane(row, rng):
    # Every count around the row's widths, different passwords, salts and lengths in every lane.
    for n in sorted({1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 2 * WIDEST_LANES + 3, 70}):
        passwords = [rng.randbytes(rng.randrange(0, 130)) for _ in range(n)]
        salts = [rng.randbytes(rng.randrange(0, 130)) for _ in range(n)]
        dklen, iterations = rng.choice([1, 20, 32, 40, 64, 100]), rng.randrange(1, 40)
        keys = libsha.pbkdf2_hmac_many("sha256", passwords, salts, iterations, dklen)
        assert keys == [expected(p, s, iterations, dklen) for p, s in zip(passwords, salts)], (n, dklen)


def test_many_keys_sharing_a_password_or_a_salt(rng):
    salts = [rng.randbytes(16) for _ in range(21)]
    assert libsha.pbkdf2_hmac_many("sha256", b"one password", salts, 7) == \
        [expected(b"one password", s, 7) for s in salts]
    passwords = [rng.randbytes(rng.randrange(40)) for _ in range(19)]
    assert libsha.pbkdf2_hmac_many("sha256", passwords, bytearray(b"one salt"), 7, 48) == \
        [expected(p, b"one salt", 7, 48) for p in passwords]
    assert libsha.pbkdf2_hmac_many("sha256", passwords, [b"one salt"] * 19, 7, 48, threads=2) == \
        [expected(p, b"one salt", 7, 48) for p in passwords]
    assert libsha.pbkdf2_hmac_many("sha256", [], b"salt", 5) == []


def test_numpy_rows_are_one_key_each():
    numpy = pytest.importorskip("numpy")
    rows = numpy.arange(7 * 12, dtype=numpy.uint8).reshape(7, 12)
    assert libsha.pbkdf2_hmac_many("sha256", rows, b"salt", 5) == \
        [expected(bytes(r), b"salt", 5) for r in rows]
    assert libsha.pbkdf2_hmac_many("sha256", b"pw", rows, 5, 40) == [expected(b"pw", bytes(r), 5, 40) for r in rows]
    assert libsha.pbkdf2_hmac_many("sha256", numpy.zeros((0, 8), numpy.uint8), b"salt", 5) == []


def test_every_buffer_kind():
    password, salt = bytes(range(70)), bytes(range(100, 140))
    for kind, make in buffer_kinds():
        assert libsha.pbkdf2_hmac("sha256", make(password), make(salt), 10, 40) == \
            expected(password, salt, 10, 40), kind
        assert libsha.pbkdf2_hmac_many("sha256", [make(password)], make(salt), 10, 40) == \
            [expected(password, salt, 10, 40)], kind


def test_hashlib_signature_and_names():
    key = expected(b"p", b"s", 2)
    assert libsha.pbkdf2_hmac(hash_name="sha256", password=b"p", salt=b"s", iterations=2, dklen=None) == key
    for name in ("sha256", "SHA256", "sha-256", "SHA2-256"):
        assert libsha.pbkdf2_hmac(name, b"p", b"s", 2) == key
    assert libsha.pbkdf2_hmac("sha256", b"p", b"s", True) == expected(b"p", b"s", 1)


@pytest.mark.parametrize("call, error, words", [
    (lambda: libsha.pbkdf2_hmac("sha1", b"p", b"s", 1), ValueError, "unsupported hash type sha1"),
    (lambda: libsha.pbkdf2_hmac(b"sha256", b"p", b"s", 1), TypeError, "must be str"),
    (lambda: libsha.pbkdf2_hmac("sha256", "p", b"s", 1), TypeError, "str"),
    (lambda: libsha.pbkdf2_hmac("sha256", b"p", "s", 1), TypeError, "str"),
    (lambda: libsha.pbkdf2_hmac("sha256", b"p", None, 1), TypeError, "salt"),
    (lambda: libsha.pbkdf2_hmac("sha256", b"p", b"s", 0), ValueError, "iteration value must be greater than 0"),
    (lambda: libsha.pbkdf2_hmac("sha256", b"p", b"s", -5), ValueError, "iteration value must be greater than 0"),
    (lambda: libsha.pbkdf2_hmac("sha256", b"p", b"s", 2**64), OverflowError, "iteration value is too great"),
    (lambda: libsha.pbkdf2_hmac("sha256", b"p", b"s", 1.0), TypeError, "float"),
    (lambda: libsha.pbkdf2_hmac("sha256", b"p", b"s", 1, 0), ValueError, "key length must be greater than 0"),
    (lambda: libsha.pbkdf2_hmac("sha256", b"p", b"s", 1, -1), ValueError, "key length must be greater than 0"),
    (lambda: libsha.pbkdf2_hmac("sha256", b"p", b"s", 1, (2**32 - 1) * 32 + 1), OverflowError, "too great"),
    (lambda: libsha.pbkdf2_hmac("sha256", b"p", b"s", 1, 2.0), TypeError, "float"),
    (lambda: libsha.pbkdf2_hmac_many("sha256", b"p", b"s", 1), TypeError, "sequence of passwords or of salts"),
    (lambda: libsha.pbkdf2_hmac_many("sha256", [b"p"] * 3, [b"s"] * 2, 1), ValueError, "3 passwords but 2 salts"),
    (lambda: libsha.pbkdf2_hmac_many("sha256", [b"p", "q"], b"s", 1), TypeError, "password 1 is a str"),
    (lambda: libsha.pbkdf2_hmac_many("sha256", [b"p"], [None], 1), TypeError, "salt 0"),
    (lambda: libsha.pbkdf2_hmac_many("sha256", 5, b"s", 1), TypeError, "not an int"),
    (lambda: libsha.pbkdf2_hmac_many("md5", [b"p"], b"s", 1), ValueError, "SHA-256 only"),
    (lambda: libsha.pbkdf2_hmac_many("sha256", [b"p"], b"s", 0), ValueError, "greater than 0"),
    (lambda: libsha.pbkdf2_hmac_many("sha256", [b"p"], b"s", 1, threads=-1), ValueError, "threads"),
])
def test_bad_input_is_refused_as_hashlib_refuses_it(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_the_c_contract():
    out = ctypes.create_string_buffer(64)
    f = lib.libsha_pbkdf2_hmac_sha256
    assert f(out, 32, None, 0, None, 0, 3) == _errors.OK
    assert out.raw[:32] == expected(b"", b"", 3)
    assert f(None, 0, b"p", 1, b"s", 1, 3) == _errors.OK  # nothing to derive
    untouched = b"\xaa" * 64
    for args, code in [
        ((out, 32, None, 1, b"s", 1, 1), _errors.ERR_NULL),
        ((out, 32, b"p", 1, None, 1, 1), _errors.ERR_NULL),
        ((None, 32, b"p", 1, b"s", 1, 1), _errors.ERR_NULL),
        ((out, 32, b"p", 1, b"s", 1, 0), _errors.ERR_ARGUMENT),
    ]:
        ctypes.memmove(out, untouched, 64)
        assert f(*args) == code, args
        assert out.raw == untouched, args
    if ctypes.sizeof(ctypes.c_size_t) == 8:
        assert f(out, (2**32 - 1) * 32 + 1, b"p", 1, b"s", 1, 1) == _errors.ERR_ARGUMENT
        assert out.raw == untouched
    # out overlapping the password or the salt: refused, not half-derived
    buffer = ctypes.create_string_buffer(b"password and salt", 64)
    address = ctypes.addressof(buffer)
    assert f(address + 4, 32, address, 8, address + 13, 4, 2) == _errors.ERR_ARGUMENT
    assert buffer.raw[:17] == b"password and salt"


def test_the_c_many_contract():
    out = ctypes.create_string_buffer(96)
    f = lib.libsha_pbkdf2_hmac_sha256_many
    pws = (ctypes.c_void_p * 3)(*[ctypes.cast(ctypes.c_char_p(p), ctypes.c_void_p).value for p in (b"a", b"b", b"c")])
    keep = [b"a", b"b", b"c"]  # noqa: F841 (the pointers' bytes)
    lens = (ctypes.c_size_t * 3)(1, 1, 1)
    salts = (ctypes.c_void_p * 3)(None, None, None)
    zero = (ctypes.c_size_t * 3)(0, 0, 0)
    assert f(out, 32, pws, lens, salts, zero, 3, 4) == _errors.OK
    assert [out.raw[32 * i:32 * i + 32] for i in range(3)] == [expected(p, b"", 4) for p in (b"a", b"b", b"c")]
    assert f(out, 32, None, lens, salts, zero, 3, 4) == _errors.ERR_NULL
    assert f(out, 32, pws, lens, salts, lens, 3, 4) == _errors.ERR_NULL  # a NULL salt with a length
    assert f(out, 32, None, None, None, None, 0, 4) == _errors.OK
    if ctypes.sizeof(ctypes.c_size_t) == 8:
        assert f(out, 2**34, pws, lens, salts, zero, 2**31, 4) == _errors.ERR_ARGUMENT  # n * out_len overflows
