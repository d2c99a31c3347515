"""out= on every batch call that returns digests: written in place and returned, on lists, tuples,
numpy rows, Arrow, polars and pandas columns, with threads; and every wrong buffer refused before
anything is written (its bytes compared whole after the error). threads= on a list of bytes."""

import hashlib
import hmac

import pytest

import libsha
from libsha._errors import NonContiguousError
from support.data import sha256d

pytestmark = [pytest.mark.core, pytest.mark.binding]

KEY = b"out= key, 23 bytes long"
TAG = "BIP0340/challenge"


def tagged(tag, message):
    block = hashlib.sha256(tag.encode()).digest() * 2
    return hashlib.sha256(block + message).digest()


# (name, call(messages, **kwargs), the digest of one message)
CALLS = [
    ("sha256_many", lambda msgs, **kw: libsha.sha256_many(msgs, **kw), lambda m: hashlib.sha256(m).digest()),
    ("double", lambda msgs, **kw: libsha.sha256_many(msgs, double=True, **kw), sha256d),
    ("prefix", lambda msgs, **kw: libsha.sha256_many(msgs, prefix=b"p" * 70, **kw),
     lambda m: hashlib.sha256(b"p" * 70 + m).digest()),
    ("hmac_sha256_many", lambda msgs, **kw: libsha.hmac_sha256_many(KEY, msgs, **kw),
     lambda m: hmac.digest(KEY, m, "sha256")),
    ("tagged_hash_many", lambda msgs, **kw: libsha.tagged_hash_many(TAG, msgs, **kw), lambda m: tagged(TAG, m)),
]


def messages(rng, n):
    return [rng.randbytes(rng.choice((0, rng.randrange(64), rng.randrange(300), rng.randrange(2000)))) for _ in range(n)]


def out_kinds():
    kinds = [("bytearray", lambda n: bytearray(32 * n)), ("memoryview", lambda n: memoryview(bytearray(32 * n)))]
    try:
        import numpy
    except ImportError:
        return kinds
    return kinds + [("numpy (n, 32)", lambda n: numpy.zeros((n, 32), numpy.uint8)),
                    ("numpy uint64 (n, 4)", lambda n: numpy.zeros((n, 4), numpy.uint64))]


@pytest.mark.parametrize("name, call, one", CALLS, ids=[c[0] for c in CALLS])
@pytest.mark.parametrize("kind, make", out_kinds(), ids=[k[0] for k in out_kinds()])
def test_list_digests_into_the_buffer(name, call, one, kind, make, rng):
    for n in (0, 1, 7, 4097, 9000):  # one slice, several, and enough for threads
        msgs = messages(rng, n)
        want = b"".join(map(one, msgs))
        for threads in (1, 2):
            out = make(n)
            assert call(msgs, out=out, threads=threads) is out
            assert raw(out) == want, (name, n, threads)
            out = make(n)
            assert call(tuple(msgs), out=out, threads=threads) is out
            assert raw(out) == want


def test_other_buffers_in_the_list_and_iterables(rng):
    msgs = messages(rng, 5000)
    mixed = [bytearray(m) if i % 3 == 1 else memoryview(m) if i % 3 == 2 else m for i, m in enumerate(msgs)]
    want = b"".join(hashlib.sha256(m).digest() for m in msgs)
    for threads in (1, 2):
        out = bytearray(32 * len(msgs))
        assert libsha.sha256_many(mixed, out=out, threads=threads) is out and out == want
        out = bytearray(32 * len(msgs))
        assert libsha.sha256_many(iter(msgs), out=out, threads=threads) is out and out == want


def raw(buffer):
    """A buffer's bytes, whatever its shape."""
    return memoryview(buffer).tobytes()


def refused(call, out, error, match):
    """call(out) raises error matching `match`, and out's bytes are as they were."""
    before = raw(out) if not isinstance(out, (str, int)) else None
    with pytest.raises(error, match=match):
        call(out)
    if before is not None:
        assert raw(out) == before, "written before the error"


def test_wrong_buffers_refused_before_anything_is_written(rng):
    msgs = messages(rng, 50)
    call = lambda out: libsha.sha256_many(msgs, out=out)  # noqa: E731
    refused(call, bytearray(32 * 50 - 1), ValueError, "out has 1599 bytes; 50 digests need 1600")
    refused(call, bytearray(32 * 50 + 32), ValueError, "50 digests need 1600")
    refused(call, bytes(32 * 50), TypeError, "writable")
    refused(call, memoryview(bytearray(32 * 50)).toreadonly(), TypeError, "read-only")
    refused(call, memoryview(bytearray(64 * 50))[::2], NonContiguousError, "C-contiguous")
    refused(call, "x" * 1600, TypeError, "writable bytes-like")
    refused(call, 1600, TypeError, "writable bytes-like")
    refused(lambda out: libsha.sha256_many(msgs, out=out, hex=True), bytearray(1600), TypeError, "hex=True")
    # A bad message anywhere: refused, nothing written (lists of bytes and of other buffers).
    for bad in (msgs[:40] + ["text"] + msgs[41:], [bytearray(m) for m in msgs[:40]] + [3] + msgs[41:]):
        refused(lambda out: libsha.sha256_many(bad, out=out), bytearray(1600), TypeError, "message 40")


def test_out_overlapping_the_messages_is_refused(rng):
    buf = bytearray(rng.randbytes(64 * 100))
    views = [memoryview(buf)[64 * i : 64 * i + 64] for i in range(100)]
    before = bytes(buf)
    for out in (memoryview(buf)[: 32 * 100], memoryview(buf)[-32 * 100 :]):
        with pytest.raises(ValueError, match="out overlaps message"):
            libsha.sha256_many(views, out=out)
        assert buf == before
    other = bytearray(32 * 100)  # a buffer of its own is fine
    assert libsha.sha256_many(views, out=other) == b"".join(hashlib.sha256(v).digest() for v in views)


def test_numpy_rows_into_the_buffer(rng):
    numpy = pytest.importorskip("numpy")
    rows = numpy.frombuffer(rng.randbytes(300 * 77), numpy.uint8).reshape(300, 77)
    want = b"".join(hashlib.sha256(bytes(r)).digest() for r in rows)
    for threads in (1, 2):
        out = numpy.zeros((300, 32), numpy.uint8)
        assert libsha.sha256_many(rows, out=out, threads=threads) is out and out.tobytes() == want
        out = bytearray(300 * 32)
        assert libsha.tagged_hash_many(TAG, rows, out=out, threads=threads) is out
        assert out == b"".join(tagged(TAG, bytes(r)) for r in rows)
    inside = numpy.frombuffer(bytearray(rng.randbytes(64 * 40)), numpy.uint8).reshape(40, 64)
    before = inside.tobytes()
    with pytest.raises(ValueError, match="out overlaps the messages"):
        libsha.sha256_many(inside, out=inside[20:].reshape(40, 32))
    assert inside.tobytes() == before


def test_arrow_polars_pandas_into_the_buffer(rng):
    pyarrow = pytest.importorskip("pyarrow")
    values = messages(rng, 1000)
    want = b"".join(hashlib.sha256(v).digest() for v in values)
    column = pyarrow.array(values, pyarrow.binary())
    for col in (column, column.slice(0), pyarrow.chunked_array([column.slice(0, 300), column.slice(300)]),
                pyarrow.array(values, pyarrow.large_binary())):
        out = bytearray(32 * 1000)
        assert libsha.sha256_many(col, out=out, threads=2) is out and out == want
    with_nulls = pyarrow.array(values[:10] + [None], pyarrow.binary())
    out = bytearray(32 * 11)
    with pytest.raises(ValueError, match="nulls"):
        libsha.sha256_many(with_nulls, out=out)
    assert out == bytearray(32 * 11)
    polars = pytest.importorskip("polars")
    out = bytearray(32 * 1000)
    assert libsha.sha256_many(polars.Series("v", values), out=out) is out and out == want
    pandas = pytest.importorskip("pandas")
    out = bytearray(32 * 1000)
    assert libsha.sha256_many(pandas.Series(values, dtype=object), out=out) is out and out == want
    out = bytearray(32 * 3)
    with pytest.raises(ValueError, match="missing"):
        libsha.sha256_many(pandas.Series([b"a", None, b"b"], dtype=object), out=out)
    assert out == bytearray(32 * 3)


def test_sha256d64_into_the_buffer(rng):
    data = rng.randbytes(64 * 33)
    want = b"".join(sha256d(data[i : i + 64]) for i in range(0, len(data), 64))
    out = bytearray(32 * 33)
    assert libsha.sha256d64(data, out=out) is out and out == want
    refused(lambda o: libsha.sha256d64(data, out=o), bytearray(32 * 32), ValueError, "33 digests need 1056")
    inside = bytearray(data)
    refused(lambda o: libsha.sha256d64(inside, out=o), memoryview(inside)[: 32 * 33], ValueError, "out overlaps data")


def test_pbkdf2_many_into_the_buffer():
    passwords = [b"a", b"bb", b"ccc"]
    out = bytearray(3 * 20)
    assert libsha.pbkdf2_hmac_many("sha256", passwords, b"salt", 100, 20, out=out) is out
    assert out == b"".join(hashlib.pbkdf2_hmac("sha256", p, b"salt", 100, 20) for p in passwords)
    refused(lambda o: libsha.pbkdf2_hmac_many("sha256", passwords, b"salt", 100, 20, out=o), bytearray(59),
            ValueError, "3 keys need 60")
    salts = bytearray(b"s" * 48)
    refused(lambda o: libsha.pbkdf2_hmac_many("sha256", passwords, [memoryview(salts)[i * 16 : i * 16 + 16]
                                                                    for i in range(3)], 100, 16, out=o),
            memoryview(salts), ValueError, "out overlaps salt")


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_on_a_list_keep_every_digest_in_place(rng, threads):
    msgs = messages(rng, 20000)
    want = [hashlib.sha256(m).digest() for m in msgs]
    assert libsha.sha256_many(msgs, threads=threads) == want
    assert libsha.sha256_many(msgs, threads=threads, hex=True) == [d.hex() for d in want]
    assert libsha.hmac_sha256_many(KEY, msgs, threads=threads) == [hmac.digest(KEY, m, "sha256") for m in msgs]
