"""Batches that start from a state: hmac_sha256_many against hmac.digest, sha256_many(prefix=) and
tagged_hash_many against hashlib, on every set of lane kernels, every input kind, in every lane
position; and their refusals."""

import hashlib
import hmac

import pytest

import libsha
from support.data import WIDEST_LANES

pytestmark = [pytest.mark.core, pytest.mark.binding]

TAG = "BIP0340/challenge"


def by_hmac(key, messages):
    return [hmac.digest(key, m, "sha256") for m in messages]


def after(prefix, messages):
    return [hashlib.sha256(prefix + m).digest() for m in messages]


def tagged(tag, message):
    """BIP-340's definition, with hashlib."""
    t = hashlib.sha256(tag.encode()).digest()
    return hashlib.sha256(t + t + message).digest()


def lane_batch(rng, length, n=WIDEST_LANES + 1):
    """A message of `length` in each lane position in turn, the others of other lengths, all different."""
    batches = []
    for position in range(n):
        lengths = [length if i == position else rng.randrange(0, 300) for i in range(n)]
        batches.append([rng.randbytes(k) for k in lengths])
    return batches


def test_hmac_batch_keys_0_to_200(lanes_row, rng):
    # A key longer than the block (65..200) is hashed first; 64 is the edge.
    for keylen in range(0, 201):
        key = rng.randbytes(keylen)
        messages = [rng.randbytes(rng.choice((0, 1, 55, 56, 63, 64, 65, rng.randrange(5001)))) for _ in range(7)]
        assert libsha.hmac_sha256_many(key, messages) == by_hmac(key, messages), keylen


def test_hmac_batch_messages_0_to_5000_in_every_lane_position(lanes_row, rng):
    key = rng.randbytes(rng.randrange(1, 100))
    for length in list(range(0, 140)) + [191, 192, 193, 1000, 4095, 4096, 5000]:
        for batch in lane_batch(rng, length):
            assert libsha.hmac_sha256_many(key, batch) == by_hmac(key, batch), length


def test_hmac_batch_runs_of_one_length(lanes_row, rng):
    # Runs of one length go through the lanes in step (run_streak_after): every tail, runs broken by others.
    key = rng.randbytes(32)
    for length in list(range(0, 200)) + [1000, 4096]:
        messages = [rng.randbytes(length) for _ in range(2 * WIDEST_LANES + 3)]
        assert libsha.hmac_sha256_many(key, messages) == by_hmac(key, messages), length
    lengths = [64] * 20 + [3] * 2 + [64] * 17 + [120] * 16 + [0] * 33 + [64] * 15 + [7] * 8
    messages = [rng.randbytes(k) for k in lengths]
    assert libsha.hmac_sha256_many(key, messages) == by_hmac(key, messages)


def test_prefix_batch_prefixes_0_to_300(lanes_row, rng):
    for plen in range(0, 301):
        prefix = rng.randbytes(plen)
        lengths = [rng.choice((0, 1, 55, 56, 63, 64, 65, rng.randrange(700))) for _ in range(WIDEST_LANES + 2)]
        messages = [rng.randbytes(k) for k in lengths]
        assert libsha.sha256_many(messages, prefix=prefix) == after(prefix, messages), plen
        same = [rng.randbytes(lengths[0]) for _ in range(2 * WIDEST_LANES)]  # a run of one length
        assert libsha.sha256_many(same, prefix=prefix) == after(prefix, same), plen


def test_prefix_batch_in_every_lane_position_and_double(lanes_row, rng):
    for plen in (0, 1, 63, 64, 65, 1024):
        prefix = rng.randbytes(plen)
        for length in (0, 1, 55, 56, 63, 64, 119, 120, 500, 5000):
            for batch in lane_batch(rng, length):
                assert libsha.sha256_many(batch, prefix=prefix) == after(prefix, batch), (plen, length)
            twice = [hashlib.sha256(d).digest() for d in after(prefix, batch)]
            assert libsha.sha256_many(batch, prefix=prefix, double=True) == twice


def test_prefix_as_a_hash_object_or_a_saved_state(rng):
    prefix = rng.randbytes(200)
    messages = [rng.randbytes(rng.randrange(300)) for _ in range(40)]
    h = libsha.sha256(prefix[:70])
    h.update(prefix[70:])
    assert libsha.sha256_many(messages, prefix=h) == after(prefix, messages)
    assert libsha.sha256_many(messages, prefix=libsha.sha256.from_state(h.state())) == after(prefix, messages)
    h.update(b"more")  # the batch took the prefix's state, not the object
    assert h.digest() == hashlib.sha256(prefix + b"more").digest()


def test_hmac_batch_from_an_hmac_object(rng):
    key, head = rng.randbytes(40), rng.randbytes(77)
    mac = libsha.HMAC(key, head)
    messages = [rng.randbytes(rng.randrange(300)) for _ in range(40)]
    assert libsha.hmac_sha256_many(mac, messages) == [hmac.digest(key, head + m, "sha256") for m in messages]
    assert mac.digest() == hmac.digest(key, head, "sha256")  # unchanged


def test_tagged_hashes(rng):
    for tag in (TAG, "TapLeaf", "", "x" * 200, b"BIP0340/nonce"):
        name = tag.decode() if isinstance(tag, bytes) else tag
        messages = [rng.randbytes(rng.choice((0, 32, 33, rng.randrange(500)))) for _ in range(WIDEST_LANES * 3)]
        want = [tagged(name, m) for m in messages]
        assert [libsha.tagged_hash(tag, m) for m in messages] == want
        assert libsha.tagged_hash_many(tag, messages) == want
        assert libsha.tagged_hash_many(tag, messages, hex=True) == [w.hex() for w in want]
    long = rng.randbytes(100_000)  # through a hash object, not joined
    assert libsha.tagged_hash(TAG, long) == tagged(TAG, long)
    assert libsha.tagged_hash(TAG, bytearray(b"abc")) == tagged(TAG, b"abc")


def test_every_input_kind(rng):
    numpy = pytest.importorskip("numpy")
    pyarrow = pytest.importorskip("pyarrow")
    key, prefix = rng.randbytes(50), rng.randbytes(90)
    messages = [rng.randbytes(rng.randrange(0, 200)) for _ in range(3 * WIDEST_LANES + 1)]
    calls = [(lambda m: libsha.hmac_sha256_many(key, m), by_hmac(key, messages)),
             (lambda m: libsha.sha256_many(m, prefix=prefix), after(prefix, messages)),
             (lambda m: libsha.tagged_hash_many(TAG, m), [tagged(TAG, m) for m in messages])]
    for call, want in calls:
        assert call(messages) == want
        assert call(tuple(messages)) == want
        assert call(iter(messages)) == want
        assert call([bytearray(m) for m in messages]) == want  # not bytes: the Python path
        assert call([memoryview(m) for m in messages]) == want
        for arrow_type in ("binary", "large_binary", "binary_view"):
            column = pyarrow.array(messages, getattr(pyarrow, arrow_type)())
            assert call(column).to_pylist() == want, arrow_type
            assert call(column.slice(5)).to_pylist() == want[5:], arrow_type
            assert call(pyarrow.chunked_array([column.slice(0, 4), column.slice(4)])).to_pylist() == want
        fixed = [m[:40].ljust(40, b"\0") for m in messages]
        rows = numpy.frombuffer(b"".join(fixed), dtype=numpy.uint8).reshape(len(fixed), 40)
        assert [bytes(r) for r in call(rows)] == [call([f])[0] for f in fixed]


def test_string_columns_and_hex(rng):
    pyarrow = pytest.importorskip("pyarrow")
    texts = ["", "a", "héllo", "x" * 100] * 5
    key = b"k"
    want = [hmac.digest(key, t.encode(), "sha256").hex() for t in texts]
    assert libsha.hmac_sha256_many(key, pyarrow.array(texts, pyarrow.string()), hex=True).to_pylist() == want
    assert libsha.hmac_sha256_many(key, [t.encode() for t in texts], hex=True) == want


def test_polars_and_pandas(rng):
    polars = pytest.importorskip("polars")
    pandas = pytest.importorskip("pandas")
    messages = [rng.randbytes(rng.randrange(100)) for _ in range(50)]
    key = rng.randbytes(20)
    assert libsha.hmac_sha256_many(key, polars.Series("m", messages)).to_list() == by_hmac(key, messages)
    series = pandas.Series(messages + [None], index=range(10, 61))
    result = libsha.hmac_sha256_many(key, series)
    assert list(result.index) == list(range(10, 61)) and result.tolist() == by_hmac(key, messages) + [None]


def test_threads(rng):
    messages = [rng.randbytes(rng.randrange(2000)) for _ in range(20000)]
    key = rng.randbytes(16)
    assert libsha.hmac_sha256_many(key, messages, threads=2) == by_hmac(key, messages)
    assert libsha.sha256_many(messages, prefix=key, threads=2) == after(key, messages)


def test_bad_arguments():
    with pytest.raises(TypeError, match="key is bytes-like or a libsha.HMAC object, not a str"):
        libsha.hmac_sha256_many("key", [b"m"])
    with pytest.raises(TypeError, match="prefix is bytes-like or a libsha.sha256 object"):
        libsha.sha256_many([b"m"], prefix=hashlib.sha256(b"p"))
    with pytest.raises(TypeError, match="prefix is bytes-like"):
        libsha.sha256_many([b"m"], prefix="p")
    with pytest.raises(TypeError, match="hmac_sha256_many takes a collection of messages, not one bytes"):
        libsha.hmac_sha256_many(b"k", b"message")
    with pytest.raises(TypeError, match="tagged_hash_many takes a collection"):
        libsha.tagged_hash_many(TAG, b"message")
    with pytest.raises(TypeError, match="tag is str or bytes-like, not an int"):
        libsha.tagged_hash(3, b"m")
    with pytest.raises(TypeError):
        libsha.tagged_hash(TAG, "text")
    with pytest.raises(TypeError, match="message 1"):
        libsha.hmac_sha256_many(b"k", [b"a", 3])
    with pytest.raises(TypeError):
        libsha.hmac_sha256_many(b"k", [b"a"], double=True)  # an HMAC has no double form


def test_empty_batches():
    assert libsha.hmac_sha256_many(b"k", []) == []
    assert libsha.sha256_many([], prefix=b"p") == []
    assert libsha.tagged_hash_many(TAG, []) == []
