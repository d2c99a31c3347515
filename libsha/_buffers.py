"""Lends a C pointer to any C-contiguous buffer without copying it."""

from __future__ import annotations

import ctypes

from ._errors import NonContiguousError, a_type
from ._views import contiguous_view, is_buffer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class _PyBuffer(ctypes.Structure):
    # Py_buffer from CPython's Include/pybuffer.h (stable since 3.3).
    _fields_ = [
        ("buf", ctypes.c_void_p),
        ("obj", ctypes.c_void_p),
        ("len", ctypes.c_ssize_t),
        ("itemsize", ctypes.c_ssize_t),
        ("readonly", ctypes.c_int),
        ("ndim", ctypes.c_int),
        ("format", ctypes.c_char_p),
        ("shape", ctypes.c_void_p),
        ("strides", ctypes.c_void_p),
        ("suboffsets", ctypes.c_void_p),
        ("internal", ctypes.c_void_p),
    ]


try:
    _get_buffer = ctypes.pythonapi.PyObject_GetBuffer
    _get_buffer.argtypes = [ctypes.py_object, ctypes.POINTER(_PyBuffer), ctypes.c_int]
    _get_buffer.restype = ctypes.c_int
    _release_buffer = ctypes.pythonapi.PyBuffer_Release
    _release_buffer.argtypes = [ctypes.POINTER(_PyBuffer)]
    _release_buffer.restype = None
except AttributeError:  # not CPython: no C API to borrow through
    _get_buffer = None  # type: ignore[assignment]

_PyBUF_SIMPLE = 0


def taken_and_wiped(out: Any, length: int) -> bytes:
    """The first `length` bytes of a ctypes buffer C wrote key material into, as bytes (the one
    copy, the caller's), and the buffer zeroed."""
    key = ctypes.string_at(out, length)
    ctypes.memset(out, 0, ctypes.sizeof(out))
    return key


class address_of_bytes:
    """with address_of_bytes(data) as address: the address of a bytes object's contents, valid
    inside the block. CPython hands out the bytes' own memory; PyPy, whose collector moves objects,
    a copy owned by the c_char_p made here, freed with it: an address taken from a temporary
    c_char_p (cast(c_char_p(data), c_void_p).value) dangles there once that object is collected."""

    __slots__ = ("_pointer",)

    def __init__(self, data: bytes) -> None:
        self._pointer: Any = ctypes.c_char_p(data)

    def __enter__(self) -> int:
        return ctypes.cast(self._pointer, ctypes.c_void_p).value or 0

    def __exit__(self, *exc: object) -> None:
        self._pointer = None


class borrow:
    """with borrow(data) as (pointer, nbytes): pointer stays valid inside the block.

    pointer is what a ctypes call takes: an int, or bytes (passed as they are); with address=True
    always an int, for arithmetic or a descriptor's field. Holding the buffer also stops a bytearray
    from being resized meanwhile.
    """

    __slots__ = ("_data", "_view", "_array", "_buffer", "_address", "_pinned")

    def __init__(self, data: object, what: str = "data", *, address: bool = False) -> None:
        self._data = data
        self._view = contiguous_view(data, what)
        self._array: Any = None
        self._buffer: Any = None
        self._address = address
        self._pinned: address_of_bytes | None = None

    def _lent(self, data: bytes) -> Any:
        if not self._address:
            return data
        self._pinned = address_of_bytes(data)
        return self._pinned.__enter__()

    def __enter__(self) -> tuple[Any, int]:
        if type(self._data) is bytes:  # immutable, and ctypes passes its bytes as they are
            return self._lent(self._data), self._view.nbytes
        view = self._view
        nbytes = view.nbytes
        if not view.readonly:
            # ctypes can only map writable memory, but does it in one cheap call.
            try:
                self._array = (ctypes.c_char * nbytes).from_buffer(view)
                return ctypes.addressof(self._array), nbytes  # an int: only we hold the array
            except ValueError:  # PyPy: a buffer whose address it does not know (io.BytesIO's)
                pass
        if _get_buffer is None:
            return self._lent(bytes(view)), nbytes  # no C API here: borrow a copy
        self._buffer = _PyBuffer()
        _get_buffer(view, ctypes.byref(self._buffer), _PyBUF_SIMPLE)
        return self._buffer.buf, self._buffer.len

    def __exit__(self, *exc: object) -> None:
        self._pinned = None
        self._array = None  # the last reference: releases its export now
        if self._buffer is not None:
            _release_buffer(ctypes.byref(self._buffer))
            self._buffer = None
        self._view.release()


class writable_out:
    """with writable_out(out, nbytes, count) as address: a batch call's out= checked before anything
    is written (a writable, C-contiguous buffer of exactly nbytes: numpy (n, 32) uint8 rows, a
    bytearray, a memoryview), and the address it is written at while the block runs (a bytearray
    cannot be resized meanwhile). `count` and `noun` word the size error ("3 digests need 96")."""

    __slots__ = ("view", "address", "nbytes", "_borrowed")

    def __init__(self, out: object, nbytes: int, count: int, noun: str = "digests") -> None:
        if isinstance(out, (str, bytes)) or not is_buffer(out):
            raise TypeError(f"out must be a writable bytes-like object (a bytearray, a numpy uint8 array, a "
                            f"memoryview of one), not {a_type(out)}")
        view = memoryview(out)  # type: ignore[arg-type]
        if view.readonly:
            raise TypeError(f"out is read-only ({a_type(out)}): it must be writable (a bytearray, a numpy array)")
        if not view.c_contiguous:
            raise NonContiguousError("out must be a C-contiguous buffer (numpy.ascontiguousarray gives one)")
        if view.nbytes != nbytes:
            raise ValueError(f"out has {view.nbytes} bytes; {count} {noun} need {nbytes}")
        self.view, self.nbytes = view, nbytes
        self._borrowed = borrow(view, "out")
        self.address = 0

    def __enter__(self) -> writable_out:
        pointer, _ = self._borrowed.__enter__()
        if not isinstance(pointer, int):  # a copy (PyPy, a buffer whose address it does not know)
            self._borrowed.__exit__()
            raise TypeError("out is a buffer whose memory this interpreter cannot lend to C: pass a bytearray")
        self.address = pointer
        return self

    def refuse_overlap(self, address: int, nbytes: int, what: str) -> None:
        """ValueError where [address, address + nbytes) shares a byte with out: nothing is written yet."""
        if nbytes > 0 and self.nbytes > 0 and address < self.address + self.nbytes and self.address < address + nbytes:
            raise ValueError(f"out overlaps {what}: the digests would overwrite what is still to be hashed "
                             f"(give out a buffer of its own)")

    def refuse_overlap_with(self, data: object, what: str) -> None:
        """refuse_overlap for a bytes-like object's memory (bytes never overlaps a writable buffer)."""
        if type(data) is bytes:
            return
        with borrow(data, what) as (pointer, nbytes):
            if isinstance(pointer, int):
                self.refuse_overlap(pointer, nbytes, what)

    def __exit__(self, *exc: object) -> None:
        self._borrowed.__exit__()
