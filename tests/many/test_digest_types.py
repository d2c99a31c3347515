"""sha256_many's Arrow result types (arrow_type=), read back by pyarrow, Polars, DuckDB and pandas.

Spark's side is in test_spark_example.py (it needs a JVM).
"""

import hashlib
import re

import pytest

import libsha

pyarrow = pytest.importorskip("pyarrow")

# Every type a digest column can be made as, the default (None) first, with what a reader gets.
DIGEST_TYPES = [(None, False), (pyarrow.binary(32), False), (pyarrow.binary(), False),
                (pyarrow.large_binary(), False), (None, True), (pyarrow.string(), True),
                (pyarrow.large_string(), True)]
IDS = ["default", "binary32", "binary", "large_binary", "hex_default", "hex_string", "hex_large_string"]


def expected(values, hex):
    digests = [None if v is None else hashlib.sha256(v).digest() for v in values]
    return [d.hex() if hex and d is not None else d for d in digests]


@pytest.fixture
def payloads(rng):
    """Binary payloads of 0..299 bytes, with nulls and empty values, sliced so offsets start above 0."""
    values = [None if rng.random() < 0.05 else rng.randbytes(rng.randrange(300)) for _ in range(2100)]
    return values[17:], pyarrow.array(values, pyarrow.binary()).slice(17)


@pytest.mark.parametrize("arrow_type, hex", DIGEST_TYPES, ids=IDS)
def test_pyarrow_reads_every_type(payloads, arrow_type, hex):
    values, column = payloads
    got = libsha.sha256_many(column, hex=hex, arrow_type=arrow_type, threads=2)
    want_type = arrow_type or (pyarrow.string() if hex else pyarrow.binary(32))
    assert got.type == want_type
    got.validate(full=True)
    assert got.null_count == values.count(None)
    assert got.to_pylist() == expected(values, hex)
    chunked = pyarrow.chunked_array([column.slice(0, 5), column.slice(5, 0), column.slice(5)])
    got = libsha.sha256_many(chunked, hex=hex, arrow_type=arrow_type)
    assert isinstance(got, pyarrow.ChunkedArray) and got.type == want_type
    assert got.to_pylist() == expected(values, hex)
    empty = libsha.sha256_many(pyarrow.chunked_array([], pyarrow.binary()), hex=hex, arrow_type=arrow_type)
    assert empty.type == want_type and len(empty) == 0


@pytest.mark.parametrize("arrow_type, hex", DIGEST_TYPES, ids=IDS)
def test_polars_reads_every_type(payloads, arrow_type, hex):
    polars = pytest.importorskip("polars")
    values, column = payloads
    table = pyarrow.table({"sha256": libsha.sha256_many(column, hex=hex, arrow_type=arrow_type)})
    frame = polars.from_arrow(table)
    assert frame.schema["sha256"] == (polars.String if hex else polars.Binary)
    assert frame["sha256"].to_list() == expected(values, hex)


@pytest.mark.parametrize("arrow_type, hex", DIGEST_TYPES, ids=IDS)
def test_duckdb_reads_every_type_and_agrees(payloads, arrow_type, hex):
    duckdb = pytest.importorskip("duckdb")
    values, column = payloads
    table = pyarrow.table({"p": column, "d": libsha.sha256_many(column, hex=hex, arrow_type=arrow_type)})
    connection = duckdb.connect()
    connection.register("t", table)
    kind, = connection.execute("select distinct typeof(d) from t").fetchone()
    assert kind == ("VARCHAR" if hex else "BLOB")
    assert [row[0] for row in connection.execute("select d from t").fetchall()] == expected(values, hex)
    # DuckDB's own sha256 (hex text) agrees with ours on every non-null row.
    ours = "d" if hex else "lower(hex(d))"
    disagree, = connection.execute(f"select count(*) from t where p is not null and sha256(p) <> {ours}").fetchone()
    assert disagree == 0


@pytest.mark.parametrize("arrow_type, hex", DIGEST_TYPES, ids=IDS)
def test_pandas_reads_every_type(payloads, arrow_type, hex):
    pandas = pytest.importorskip("pandas")
    values, column = payloads
    table = pyarrow.table({"sha256": libsha.sha256_many(column, hex=hex, arrow_type=arrow_type)})
    arrow_backed = table.to_pandas(types_mapper=pandas.ArrowDtype)["sha256"]
    assert arrow_backed.dtype == pandas.ArrowDtype(arrow_type or (pyarrow.string() if hex else pyarrow.binary(32)))
    assert [None if pandas.isna(v) else v for v in arrow_backed] == expected(values, hex)
    plain = table.to_pandas()["sha256"]
    assert [None if pandas.isna(v) else v for v in plain] == expected(values, hex)
    # An Arrow-backed Series in: the type is kept through pandas too.
    series = pandas.Series(pandas.arrays.ArrowExtensionArray(column), name="p")
    got = libsha.sha256_many(series, hex=hex, arrow_type=arrow_type)
    assert got.name == "p" and got.dtype == arrow_backed.dtype
    assert [None if pandas.isna(v) else v for v in got] == expected(values, hex)


def test_bad_arrow_types_are_refused():
    column = pyarrow.array([b"abc"])
    with pytest.raises(TypeError, match="arrow_type must be a pyarrow DataType"):
        libsha.sha256_many(column, arrow_type="binary")
    with pytest.raises(TypeError, match=r"for digests is one of pyarrow.binary\(32\), pyarrow.binary\(\), "
                                        r"pyarrow.large_binary\(\); not string"):
        libsha.sha256_many(column, arrow_type=pyarrow.string())
    with pytest.raises(TypeError, match=r"for hex digests \(hex=True\) is one of pyarrow.string\(\), "
                                        r"pyarrow.large_string\(\); not binary"):
        libsha.sha256_many(column, hex=True, arrow_type=pyarrow.binary())
    for other in (pyarrow.binary(16), pyarrow.binary_view(), pyarrow.int32()):
        with pytest.raises(TypeError, match=f"not {re.escape(str(other))}$"):
            libsha.sha256_many(column, arrow_type=other)
    # Only an Arrow result has an Arrow type.
    for messages in ([b"abc"], (b"abc",)):
        with pytest.raises(TypeError, match="arrow_type applies to Arrow columns"):
            libsha.sha256_many(messages, arrow_type=pyarrow.binary())


def test_arrow_type_on_other_columns_is_refused():
    pandas = pytest.importorskip("pandas")
    with pytest.raises(TypeError, match="applies to Arrow-backed pandas Series; this one is object"):
        libsha.sha256_many(pandas.Series([b"abc"]), arrow_type=pyarrow.binary())
    numpy = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match="not a ndarray"):
        libsha.sha256_many(numpy.zeros((2, 3), numpy.uint8), arrow_type=pyarrow.binary())
    polars = pytest.importorskip("polars")
    with pytest.raises(TypeError, match="not a Series"):
        libsha.sha256_many(polars.Series([b"abc"]), arrow_type=pyarrow.binary())


def test_32_bit_offsets_that_cannot_reach_are_refused_before_hashing():
    # 2^25 rows of hex are 2 GiB of text: past what string's int32 offsets reach. Null rows, so
    # the column costs only its offsets; the refusal comes before any row is hashed.
    column = pyarrow.nulls(1 << 25, pyarrow.binary())
    with pytest.raises(ValueError, match="use arrow_type=pyarrow.large_string()"):
        libsha.sha256_many(column, hex=True, arrow_type=pyarrow.string())
    chunked = pyarrow.chunked_array([pyarrow.array([b"a"]), column])
    with pytest.raises(ValueError, match="over 2 GiB of text"):
        libsha.sha256_many(chunked, hex=True)
