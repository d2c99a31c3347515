"""Batches that start from a state: HMAC of many messages under one key, many messages after one
prefix, BIP-340 tagged hashes. libsha's C loop per implementation beside its plain batch (the
ratio the state costs), and from Python beside hmac's and hashlib's loops and StringZilla's batch HMAC."""

import hashlib
import hmac
import importlib.util

import libsha

from . import internal, stringzilla
from .batches import Batch, pattern
from .many import _messages, _one_call, _python_call, native_many
from .rows import Benchmark, peer_label

COUNT, LENGTH = 1_000_000, 64
KEY = b"libsha benchmark key, 32 bytes."
PREFIX = pattern(1024 + 251)[251:]  # 1 KiB, not the messages' first bytes
TAG = "BIP0340/challenge"
TAG_COUNT, TAG_LENGTH = 1_000_000, 32
HMAC_ROW = f"HMAC_SHA256_MANY_{COUNT}x{LENGTH}b"
PREFIX_ROW = f"SHA256_MANY_{COUNT}x{LENGTH}b_AFTER_1KiB"
PLAIN_ROW = f"SHA256_MANY_{COUNT}x{LENGTH}b"
TAGGED_ROW = f"TAGGED_HASH_MANY_{TAG_COUNT}x{TAG_LENGTH}b"


def native_midstate_benchmarks(implementation):
    """HMAC of the batch under one key, the batch after a 1 KiB prefix, and the plain batch, in C."""
    unit, batch = COUNT * LENGTH, Batch(PLAIN_ROW, COUNT, LENGTH)
    return [Benchmark(PLAIN_ROW, implementation, unit, native_many(implementation, batch)),
            Benchmark(HMAC_ROW, implementation, unit, native_many(implementation, batch, internal.UNDER_KEY, KEY)),
            Benchmark(PREFIX_ROW, implementation, unit, native_many(implementation, batch, internal.AFTER_PREFIX, PREFIX))]


def _rows_array(count, length):
    def make():
        import numpy

        return numpy.frombuffer(pattern(count * length), dtype=numpy.uint8).reshape(count, length)
    return make


def _hmac_loop(messages):
    digest = hmac.digest
    return [digest(KEY, m, "sha256") for m in messages]


def _copy_loop(start):
    def call(messages):
        out = []
        for m in messages:
            h = start.copy()
            h.update(m)
            out.append(h.digest())
        return out
    return call


def _joined(messages_of):
    return lambda: [PREFIX + m for m in messages_of()]


def _stringzilla_hmac():
    """sz.hmac_sha256(key, Strs): its lanes, the Strs made beforehand (its best case)."""
    def make():
        import stringzilla

        strs = stringzilla.Strs(_messages(COUNT, LENGTH))
        mac = stringzilla.hmac_sha256

        def run(iterations):
            for _ in range(iterations):
                mac(KEY, strs)

        return run

    import stringzilla

    return Benchmark(HMAC_ROW, f"stringzilla.hmac_sha256(key, Strs) (StringZilla {stringzilla.__version__}, one "
                     f"Python call, the Strs made beforehand)", COUNT * LENGTH, make, True)


def python_midstate_benchmarks():
    """From Python: each batch call beside the loop a Python user writes today."""
    unit, tag_unit = COUNT * LENGTH, TAG_COUNT * TAG_LENGTH
    messages = lambda: _messages(COUNT, LENGTH)  # noqa: E731
    tag_messages = lambda: _messages(TAG_COUNT, TAG_LENGTH)  # noqa: E731
    numpy = importlib.util.find_spec("numpy") is not None
    rows = [Benchmark(HMAC_ROW, _one_call("libsha.hmac_sha256_many(key, list)"), unit,
                      _python_call(lambda m: libsha.hmac_sha256_many(KEY, m), messages), True)]
    rows.append(Benchmark(HMAC_ROW, "hmac.digest(key, m, 'sha256') (list comprehension)", unit,
                          _python_call(_hmac_loop, messages), True, max_epochs=5))
    if stringzilla.available():
        rows.append(_stringzilla_hmac())
    tagged = hashlib.sha256(TAG.encode()).digest()
    rows += [
        Benchmark(PREFIX_ROW, _one_call("libsha.sha256_many(list, prefix=1 KiB)"), unit,
                  _python_call(lambda m: libsha.sha256_many(m, prefix=PREFIX), messages), True),
        Benchmark(PREFIX_ROW, _one_call("libsha.sha256_many(list), no prefix"), unit,
                  _python_call(libsha.sha256_many, messages), True),
        Benchmark(PREFIX_ROW, _one_call("libsha.sha256_many(prefix + m joined beforehand)"), unit,
                  _python_call(libsha.sha256_many, _joined(messages)), True),
        Benchmark(PREFIX_ROW, peer_label("sha256", "prefix's object copied, update, digest: Python loop"), unit,
                  _python_call(_copy_loop(hashlib.sha256(PREFIX)), messages), True, max_epochs=5),
        Benchmark(TAGGED_ROW, _one_call("libsha.tagged_hash_many(tag, list)"), tag_unit,
                  _python_call(lambda m: libsha.tagged_hash_many(TAG, m), tag_messages), True),
        Benchmark(TAGGED_ROW, _one_call("libsha.tagged_hash_many(tag, list, out=bytearray)"), tag_unit,
                  _python_call(lambda m: libsha.tagged_hash_many(TAG, m[0], out=m[1]),
                               lambda: (tag_messages(), bytearray(32 * TAG_COUNT))), True),
        Benchmark(TAGGED_ROW, _one_call("[libsha.tagged_hash(tag, m) for m in list]"), tag_unit,
                  _python_call(lambda ms: [libsha.tagged_hash(TAG, m) for m in ms], tag_messages), True, max_epochs=5),
        Benchmark(TAGGED_ROW, peer_label("sha256", "tag's object copied, update, digest: Python loop"), tag_unit,
                  _python_call(_copy_loop(hashlib.sha256(tagged + tagged)), tag_messages), True, max_epochs=5),
    ]
    # Last: importing numpy starts its BLAS threads, which spin a while and would take a core from rows after them.
    if numpy:
        rows += [Benchmark(HMAC_ROW, _one_call("libsha.hmac_sha256_many(key, numpy rows)"), unit,
                           _python_call(lambda m: libsha.hmac_sha256_many(KEY, m), _rows_array(COUNT, LENGTH)), True),
                 Benchmark(TAGGED_ROW, _one_call("libsha.tagged_hash_many(tag, numpy rows)"), tag_unit,
                           _python_call(lambda m: libsha.tagged_hash_many(TAG, m), _rows_array(TAG_COUNT, TAG_LENGTH)),
                           True)]
    return rows
