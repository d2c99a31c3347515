"""Any C-contiguous buffer is hashed in place; bad input gets hashlib's exceptions."""

import array
import hashlib
import mmap

import pytest

import libsha
from support.data import buffer_kinds, pattern251

pytestmark = [pytest.mark.core, pytest.mark.binding]

np = pytest.importorskip("numpy")

DATA = pattern251(768)


# The shared kinds (conftest.BUFFER_KINDS), and two that only this file needs: other item formats
# and shapes are hashed as their bytes.
KINDS = [*buffer_kinds(), ("mv-slice", lambda b: memoryview(b)[10 : 10 + 11 * 64]),
         ("array-I", lambda b: array.array("I", b)),
         ("numpy-2d", lambda b: np.frombuffer(bytearray(b), dtype=np.uint32).reshape(8, 24))]


@pytest.mark.parametrize("make", [make for _, make in KINDS], ids=[name for name, _ in KINDS])
def test_buffer_kinds(make):
    obj = make(DATA)
    raw = memoryview(obj).tobytes()
    expected = hashlib.sha256(raw).digest()
    assert libsha.sha256_digest(obj) == expected
    assert libsha.sha256(obj).digest() == expected
    h = libsha.sha256()
    h.update(obj)
    assert h.digest() == expected
    assert libsha.sha256d64(obj) == libsha.sha256d64(raw)


def test_mmap(tmp_path):
    path = tmp_path / "m"
    path.write_bytes(DATA)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        assert libsha.sha256_digest(m) == hashlib.sha256(DATA).digest()


def test_empty_inputs():
    empty = hashlib.sha256(b"").digest()
    for obj in (b"", bytearray(), memoryview(b""), array.array("B"), np.zeros(0, dtype=np.uint8)):
        assert libsha.sha256_digest(obj) == empty
    assert libsha.sha256_digest() == empty
    assert libsha.sha256d64(b"") == b""
    assert libsha.sha256d64(bytearray()) == b""


@pytest.mark.parametrize("call", [libsha.sha256_digest, libsha.sha256_hexdigest, libsha.sha256, lambda x: libsha.sha256().update(x),
                                  libsha.sha256d64])
def test_str_is_a_type_error(call):
    with pytest.raises(TypeError, match="encoded"):
        call("abc")


@pytest.mark.parametrize("bad", [123, 1.5, None, object(), ["a"], {"a": 1}])
@pytest.mark.parametrize("call", [libsha.sha256_digest, libsha.sha256_hexdigest, libsha.sha256, libsha.sha256d64])
def test_non_buffers_are_type_errors(call, bad):
    with pytest.raises(TypeError, match="buffer API"):
        call(bad)


@pytest.mark.parametrize(
    "make",
    [lambda: memoryview(DATA)[::2], lambda: np.arange(128, dtype=np.uint8)[::2], lambda: np.zeros((16, 16), np.uint8).T],
    ids=["memoryview-step", "numpy-step", "numpy-fortran"],
)
@pytest.mark.parametrize("call", [libsha.sha256_digest, libsha.sha256_hexdigest, libsha.sha256, libsha.sha256d64])
def test_non_contiguous_is_a_value_error(call, make):
    with pytest.raises(ValueError, match="C-contiguous") as info:
        call(make())
    assert isinstance(info.value, BufferError)  # what hashlib raises, too
    assert isinstance(info.value, libsha.NonContiguousError)


@pytest.mark.parametrize("n", [1, 32, 63, 65, 127])
def test_sha256d64_needs_whole_blobs(n):
    for obj in (bytes(n), bytearray(n), memoryview(bytes(n))):
        with pytest.raises(ValueError, match="multiple of 64"):
            libsha.sha256d64(obj)


def test_released_memoryview():
    view = memoryview(b"abc")
    view.release()
    with pytest.raises(ValueError, match="released"):
        libsha.sha256_digest(view)


def test_bytearray_cannot_be_resized_while_borrowed():
    # Holding the buffer is what keeps the pointer valid during the C call.
    from libsha._buffers import borrow

    data = bytearray(b"x" * 100)
    with borrow(data) as (pointer, nbytes):
        assert nbytes == 100
        with pytest.raises(BufferError):
            data.extend(b"more")
    data.extend(b"more")  # released afterwards
