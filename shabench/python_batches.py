"""The C batches (batches.C_BATCHES) from Python: libsha.sha256_many beside StringZilla's SHA-256 lanes
(`Sha256s`), one Python call a batch each, like for like:
- each library's prepared input, made before the timing: numpy rows (an Arrow binary array for mixed
  lengths) for libsha, a Strs tape for StringZilla, with the digests into one new buffer each;
- a list of bytes each, with a list of digests back.
Every row's digests are checked against hashlib before it is timed. StringZilla comes with the bench
extra (pip install 'libsha[bench]'); without it its rows are listed, left out, with the reason.
"""

import functools
import hashlib
import importlib.util

import libsha

from . import stringzilla
from .batches import C_BATCHES
from .many import _one_call
from .rows import Benchmark

NO_STRINGZILLA = "StringZilla not installed (pip install 'libsha[bench]')"


@functools.lru_cache(maxsize=1)
def _expected(batch):
    """hashlib's digests of the batch, once for its four rows (made in turn, batch by batch)."""
    return [hashlib.sha256(m).digest() for m in batch.messages()]


def _checked(name, call, prepared, batch):
    digests = call(prepared)
    got = [bytes(digests[32 * i:32 * (i + 1)]) for i in range(batch.count)] if isinstance(digests, bytearray) \
        else [bytes(d) for d in digests]
    if got != _expected(batch):
        raise RuntimeError(f"{name} disagrees with hashlib on {batch.name}")


def _row(batch, runner, prepare, call, left_out=None):
    def make():
        prepared = prepare(batch)
        _checked(runner, call, prepared, batch)

        def run(iterations):
            for _ in range(iterations):
                call(prepared)

        return run

    row = Benchmark(batch.name, runner, batch.total, None if left_out else make, True)
    row.left_out = left_out
    return row


def _numpy_rows(batch):
    import numpy

    return numpy.frombuffer(batch.data(), dtype=numpy.uint8).reshape(batch.count, batch.length)


def _arrow_array(batch):
    import pyarrow

    return pyarrow.array(batch.messages(), pyarrow.binary())


def _strs(batch):
    import stringzilla as sz

    return sz.Strs(batch.messages())


def _sz_into_buffer(strs):
    import stringzilla as sz

    out = bytearray(32 * len(strs))
    sz.Sha256s(len(strs)).update(strs).digest(out=out)
    return out


def _sz_list(messages):
    import stringzilla as sz

    return sz.Sha256s(len(messages)).update(messages).digest()


def _messages(batch):
    return batch.messages()


def _ours_prepared(batch):
    if batch.mixed:
        missing = None if importlib.util.find_spec("pyarrow") else "pyarrow not installed (pip install 'libsha[columns]')"
        return _row(batch, _one_call("libsha.sha256_many(pyarrow binary array)"), _arrow_array, libsha.sha256_many,
                    missing)
    missing = None if importlib.util.find_spec("numpy") else "numpy not installed (pip install 'libsha[columns]')"
    return _row(batch, _one_call("libsha.sha256_many(numpy (n, length) uint8 rows)"), _numpy_rows, libsha.sha256_many,
                missing)


def _label(call):
    who = f"StringZilla {stringzilla.version()}" if stringzilla.available() else "StringZilla"
    return f"stringzilla.{call} ({who}, one Python call)"


def python_batch_benchmarks(batches=C_BATCHES):
    """Four rows a batch: libsha and StringZilla on their prepared inputs, then on a list."""
    absent = None if stringzilla.available() else NO_STRINGZILLA
    rows = []
    for batch in batches:
        rows += [_ours_prepared(batch),
                 _row(batch, _label("Sha256s(n).update(Strs).digest(out=bytearray)"), _strs, _sz_into_buffer, absent),
                 _row(batch, _one_call("libsha.sha256_many(list)"), _messages, libsha.sha256_many),
                 _row(batch, _label("Sha256s(n).update(list).digest()"), _messages, _sz_list, absent)]
    return rows
