"""sha256_many over Polars and pandas columns, and hex=True on every input form, against hashlib."""

import hashlib

import pytest

import libsha
from support.data import sha256d


def digest_of(value, double=False, hex=False):
    if value is None:
        return None
    data = value.encode() if isinstance(value, str) else bytes(value)
    digest = sha256d(data) if double else hashlib.sha256(data).digest()
    return digest.hex() if hex else digest


def sample_values(rng, texts, n=3000):
    """Nulls, empty values, non-ASCII text, lengths across block borders."""
    values = []
    for _ in range(n):
        r = rng.random()
        if r < 0.08:
            values.append(None)
        elif r < 0.15:
            values.append("" if texts else b"")
        else:
            raw = rng.randbytes(rng.choice((rng.randrange(64), rng.randrange(300), 1024)))
            values.append(raw.hex()[: len(raw)] + "é∑" if texts else raw)
    return values


@pytest.mark.parametrize("hex", [False, True])
def test_list_hex(rng, hex):
    messages = [rng.randbytes(rng.randrange(200)) for _ in range(5000)]
    for threads in (1, 2):
        got = libsha.sha256_many(messages, hex=hex, threads=threads)
        assert got == [digest_of(m, hex=hex) for m in messages]
    assert libsha.sha256_many([], hex=True) == []


def test_numpy_hex(rng):
    numpy = pytest.importorskip("numpy")
    rows = numpy.frombuffer(rng.randbytes(300 * 40), dtype=numpy.uint8).reshape(300, 40)
    got = libsha.sha256_many(rows, hex=True)
    assert got.dtype == numpy.dtype("U64")
    assert list(got) == [digest_of(row.tobytes(), hex=True) for row in rows]


@pytest.mark.parametrize("arrow_type", ["binary", "large_binary", "string", "large_string", "binary_view", "string_view"])
@pytest.mark.parametrize("double", [False, True])
def test_arrow_hex(rng, arrow_type, double):
    pyarrow = pytest.importorskip("pyarrow")
    values = sample_values(rng, "string" in arrow_type)
    column = pyarrow.array(values, getattr(pyarrow, arrow_type)())
    got = libsha.sha256_many(column, hex=True, double=double)
    assert got.type == pyarrow.string()
    assert got.to_pylist() == [digest_of(v, double, hex=True) for v in values]
    part = column.slice(11, 1500)
    chunked = pyarrow.chunked_array([part.slice(0, 3), part.slice(3, 0), part.slice(3)])
    got = libsha.sha256_many(chunked, hex=True, threads=2, double=double)
    assert isinstance(got, pyarrow.ChunkedArray) and got.type == pyarrow.string()
    assert got.to_pylist() == [digest_of(v, double, hex=True) for v in values[11:1511]]


@pytest.mark.parametrize("hex", [False, True])
def test_polars(rng, hex):
    polars = pytest.importorskip("polars")
    pytest.importorskip("pyarrow")
    for texts, dtype in ((False, polars.Binary), (True, polars.String)):
        values = sample_values(rng, texts)
        series = polars.Series("ids", values, dtype=dtype)
        for part in (series, series.slice(17, 2000)):
            got = libsha.sha256_many(part, hex=hex, threads=2)
            assert isinstance(got, polars.Series) and got.name == "ids"
            assert got.dtype == (polars.String if hex else polars.Binary)
            assert got.to_list() == [digest_of(v, hex=hex) for v in part.to_list()]


def test_polars_bad_dtypes():
    polars = pytest.importorskip("polars")
    for series, name in ((polars.Series([1, 2]), "Int64"), (polars.Series(["a"], dtype=polars.Categorical), "Categorical"),
                         (polars.Series([1.5]), "Float64")):
        with pytest.raises(TypeError, match=f"not {name}"):
            libsha.sha256_many(series)


@pytest.mark.parametrize("hex", [False, True])
def test_pandas_arrow_backed(rng, hex):
    pandas = pytest.importorskip("pandas")
    pyarrow = pytest.importorskip("pyarrow")
    for texts, arrow_type in ((False, pyarrow.binary()), (True, pyarrow.large_string())):
        values = sample_values(rng, texts)
        series = pandas.Series(pandas.arrays.ArrowExtensionArray(pyarrow.array(values, arrow_type)),
                               index=range(100, 100 + len(values)), name="col")
        got = libsha.sha256_many(series, hex=hex)
        assert isinstance(got, pandas.Series) and got.name == "col" and list(got.index) == list(series.index)
        assert hasattr(got.array, "__arrow_array__")  # Arrow-backed in, Arrow-backed out
        assert [None if v is pandas.NA else v for v in got.tolist()] == [digest_of(v, hex=hex) for v in values]
    strings = pandas.Series(["a", None, "é"], dtype="string[pyarrow]")
    assert [None if v is pandas.NA else v for v in libsha.sha256_many(strings, hex=True).tolist()] == \
        [digest_of("a", hex=True), None, digest_of("é", hex=True)]


@pytest.mark.parametrize("hex", [False, True])
def test_pandas_object(rng, hex):
    pandas = pytest.importorskip("pandas")
    values = sample_values(rng, False, 500) + ["text é", float("nan"), None, bytearray(b"xy")]
    series = pandas.Series(values, index=[f"k{i}" for i in range(len(values))], dtype=object, name="raw")
    got = libsha.sha256_many(series, hex=hex, threads=2)
    assert got.dtype == object and got.name == "raw" and list(got.index) == list(series.index)
    expected = [None if v is None or (isinstance(v, float)) else digest_of(v, hex=hex) for v in values]
    assert got.tolist() == expected


def test_pandas_bad_dtypes():
    pandas = pytest.importorskip("pandas")
    bad = [(pandas.Series([1, 2]), "int64"), (pandas.Series(["a", "b"], dtype="category"), "category"),
           (pandas.Series([1.5]), "float64"), (pandas.Series(pandas.to_datetime(["2026-01-01"])), "datetime64")]
    pyarrow = pytest.importorskip("pyarrow")
    bad.append((pandas.Series(pandas.arrays.ArrowExtensionArray(pyarrow.array([1, 2]))), "int64\\[pyarrow\\]"))
    for series, name in bad:
        with pytest.raises(TypeError, match=f"not {name}"):
            libsha.sha256_many(series)
    with pytest.raises(TypeError, match="index 'b' is an int"):
        libsha.sha256_many(pandas.Series([b"x", 5], index=["a", "b"], dtype=object))


def test_hex_option_is_a_flag():
    with pytest.raises(TypeError, match="hex must be True or False"):
        libsha.sha256_many([b"x"], hex="yes")


def test_hex_matches_the_c_encoder():
    import ctypes

    from libsha import _errors, _native

    data = bytes(range(256)) * 3
    out = ctypes.create_string_buffer(2 * len(data))
    assert _native.lib().libsha_hex(out, data, len(data)) == _errors.OK
    assert out.raw.decode() == data.hex()
    assert _native.lib().libsha_hex(None, data, 1) == _errors.ERR_NULL


def test_pandas_string_dtypes():
    pandas = pytest.importorskip("pandas")
    values = ["a", None, "", "é∑"]
    expected = [digest_of(v, hex=True) for v in values]
    for dtype in ("string[python]", "string[pyarrow]", None):  # None: pandas' default for str
        if dtype == "string[pyarrow]":
            pytest.importorskip("pyarrow")
        series = pandas.Series(values, dtype=dtype)
        got = [None if (v is None or v is pandas.NA or (isinstance(v, float) and v != v)) else v
               for v in libsha.sha256_many(series, hex=True).tolist()]
        assert got == expected, dtype
