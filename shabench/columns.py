"""The COLUMN rows: one binary column hashed whole, by libsha through Arrow and by the
tools people reach for (hashlib in a loop, polars-hash, DuckDB), on the same
generated data in one run. Every peer's digests are checked against libsha's
before it is timed; a peer whose package is missing is left out with one line
saying why when its rows are asked for (pip install 'libsha[bench]' brings them all).
"""

import hashlib
import importlib
import importlib.util
import random

import libsha

from .rows import Benchmark, backend

# (row name, values, bytes per value)
SHAPES = [("COLUMN_64b_1M", 1_000_000, 64), ("COLUMN_1KiB_100k", 100_000, 1024)]
SEED = 20261130

_values_cache = {}


def _values(count, length):
    """count random values of length bytes (seeded: every run hashes the same column)."""
    key = (count, length)
    if key not in _values_cache:
        _values_cache.clear()  # one shape at a time: the rows run shape by shape
        data = random.Random(SEED).randbytes(count * length)
        _values_cache[key] = [data[i * length : (i + 1) * length] for i in range(count)]
    return _values_cache[key]


def _arrow_column(count, length):
    import pyarrow

    return pyarrow.array(_values(count, length), pyarrow.binary())


def _expected_hex(values):
    """libsha's hex digests of these values: what every peer must give."""
    import pyarrow

    return libsha.sha256_many(pyarrow.array(values, pyarrow.binary()), hex=True).to_pylist()


def _timed(call):
    def run(iterations):
        for _ in range(iterations):
            call()

    return run


def _libsha_row(name, count, length, threads, hex):
    def make():
        column = _arrow_column(count, length)
        return _timed(lambda: libsha.sha256_many(column, threads=threads, hex=hex))

    call = f"libsha.sha256_many(pyarrow binary{', hex=True' if hex else ''}, threads={threads})"
    return Benchmark(name, f"{call} ('{libsha.dispatch.implementation()}', one Python call)", count * length, make, True)


def _hashlib_row(name, count, length):
    def make():
        values = _values(count, length)
        sha256 = hashlib.sha256
        if [sha256(v).hexdigest() for v in values[:1000]] != _expected_hex(values[:1000]):
            raise RuntimeError("hashlib disagrees with libsha")  # same data, same digests, or no row
        return _timed(lambda: [sha256(v).digest() for v in values])

    return Benchmark(name, f"hashlib.sha256 ({backend('sha256')}, list comprehension)", count * length, make, True,
                     max_epochs=5)


def _polars_hash_row(name, count, length):
    def make():
        import polars
        import polars_hash

        frame = polars.DataFrame({"v": polars.Series(_values(count, length), dtype=polars.Binary)})
        query = polars_hash.col("v").chash.sha2_256()
        if frame.select(query).to_series().to_list() != _expected_hex(_values(count, length)):
            raise RuntimeError("polars-hash disagrees with libsha")
        return _timed(lambda: frame.select(query))

    return Benchmark(name, "polars-hash sha2_256 (Rust)", count * length, make, True)


def _duckdb_row(name, count, length):
    def make():
        import duckdb

        connection = duckdb.connect()
        table = importlib.import_module("pyarrow").table({"v": _arrow_column(count, length)})
        connection.register("t", table)
        query = "select sha256(v) as h from t"
        if connection.sql(query).to_arrow_table().column("h").to_pylist() != _expected_hex(_values(count, length)):
            raise RuntimeError("DuckDB disagrees with libsha")
        return _timed(lambda: connection.sql(query).to_arrow_table())

    return Benchmark(name, "DuckDB sha256() (C++)", count * length, make, True)


def _missing(*packages):
    return [p for p in packages if importlib.util.find_spec(p) is None]


def _left_out(row, packages):
    row.left_out = f"{', '.join(packages)} not installed (pip install 'libsha[bench]')"
    return row


def column_benchmarks():
    """The COLUMN rows of every shape; a peer not installed gives rows that say so instead of running."""
    peers = [(("polars", "polars_hash"), _polars_hash_row), (("duckdb",), _duckdb_row)]
    rows = []
    for name, count, length in SHAPES:
        shape = [_libsha_row(name, count, length, 1, False), _libsha_row(name, count, length, 0, False),
                 _libsha_row(name, count, length, 1, True), _hashlib_row(name, count, length)]
        shape += [_left_out(make(name, count, length), _missing(*packages)) if _missing(*packages)
                  else make(name, count, length) for packages, make in peers]
        if _missing("pyarrow"):  # the data goes through Arrow, for libsha and for the checks
            shape = [_left_out(row, ["pyarrow"]) for row in shape]
        rows += shape
    return rows
