"""The candidate under test, loaded and called in a child process.

In the child, `Loaded(spec)` opens the candidate once; each request hashes one case there. A crash
kills only the child; the parent (runner.py) notices, reports the case, and starts a new child.

Library candidates get their context and output buffers with SLACK bytes of a known pattern after
them: a write past the end lands there (instead of corrupting the heap) and is reported.
"""

from __future__ import annotations

import ctypes
import importlib
import mmap
import sys
import time
from dataclasses import dataclass, field

from . import shapes
from .spec import CandidateError, Spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

SLACK = 4096
FILL = 0xA5
_UNTOUCHED = bytes([FILL]) * SLACK


@dataclass
class Answer:
    """What one call gave: the digest (out's first 32 bytes), what was seen around it, and the time."""

    digest: bytes
    seconds: float = 0.0
    notes: dict[str, Any] = field(default_factory=dict)  # ctx_overrun, out_overrun, out_unwritten, ctx_bytes


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


def zero_mapping(length: int) -> mmap.mmap:
    """`length` zero bytes that cost no memory: a private anonymous mapping, whose untouched pages all
    read as the kernel's zero page (a shared one, mmap's default, gets real pages as it is read).
    No MADV_HUGEPAGE: where the kernel's huge zero page is off (transparent_hugepage/use_zero_page),
    a read fault in such a region allocates a real 2 MiB page."""
    if not hasattr(mmap, "MAP_PRIVATE"):  # Windows: pages still come zeroed, and on demand
        return mmap.mmap(-1, length)
    return mmap.mmap(-1, length, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)


class _Guarded:
    """A buffer whose bytes end right before an unreadable page (Linux, macOS): an over-read faults."""

    def __init__(self, data: bytes) -> None:
        page = mmap.PAGESIZE
        pages = (len(data) + page - 1) // page + 1
        self.map = mmap.mmap(-1, (pages + 1) * page)
        base = ctypes.addressof(ctypes.c_char.from_buffer(self.map))
        libc = _libc()
        libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        if libc.mprotect(base + pages * page, page, 0) != 0:  # PROT_NONE
            raise CandidateError("cannot protect a guard page on this system")
        self.start = pages * page - len(data)
        self.map[self.start : self.start + len(data)] = data
        self.address = base + self.start


def _slacked(size: int, fill: int = 0) -> Any:
    """A buffer of `size` bytes (set to `fill`) followed by SLACK bytes of the pattern."""
    buffer = ctypes.create_string_buffer(size + SLACK)
    ctypes.memset(buffer, fill, size)
    ctypes.memset(ctypes.addressof(buffer) + size, FILL, SLACK)
    return buffer


def _overrun(buffer: Any, size: int) -> int:
    """How many bytes past `size` were written (0: none), judged by the pattern."""
    tail = ctypes.string_at(ctypes.addressof(buffer) + size, SLACK)
    if tail == _UNTOUCHED:
        return 0
    return len(tail.rstrip(bytes([FILL])))


def _import(text: str, what: str) -> Any:
    module_name, _, name = text.partition(":")
    try:
        module = importlib.import_module(module_name)
        if "(" in name:  # an expression, e.g. hashes.Hash(SHA256()): evaluated for each case
            compiled = compile(name, f"<{what}>", "eval")
            namespace = vars(module)
            return lambda: eval(compiled, namespace)
        value: Any = module
        for part in name.split("."):
            value = getattr(value, part)
        return value
    except (ImportError, AttributeError, ValueError, SyntaxError) as exc:
        raise CandidateError(f"cannot import {text}: {type(exc).__name__}: {exc}") from None


class Loaded:
    """The candidate, opened in this (child) process."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.keep: list[Any] = []
        if spec.kind in ("callable", "object"):
            self.function: Callable[..., Any] = _import(spec.names[0], f"--{spec.kind}")
            if not callable(self.function):
                raise CandidateError(f"{spec.names[0]} is not callable")
            return
        try:
            lib = ctypes.CDLL(spec.library)
        except OSError as exc:
            raise CandidateError(f"cannot load {spec.library}: {exc}") from None
        try:
            self.functions = [getattr(lib, name) for name in spec.names]
        except AttributeError as exc:
            raise CandidateError(f"{spec.library} has no such symbol: {exc}") from None
        for function in self.functions:
            function.restype = None  # return values are ignored
            function.argtypes = None

    def _place(self, data: bytes, offset: int, guard: bool) -> int:
        """The address of a copy of data, `offset` bytes past 64-byte alignment, or against a guard page."""
        if guard:
            guarded = _Guarded(data)
            self.keep.append(guarded)
            return guarded.address
        buffer = ctypes.create_string_buffer(len(data) + 128)
        base = (ctypes.addressof(buffer) + 63) // 64 * 64
        ctypes.memmove(base + offset, data, len(data))
        self.keep.append(buffer)
        return base + offset

    def digest(self, data: bytes, splits: tuple[int, ...], offset: int, guard: bool) -> Answer:
        """The candidate's SHA-256 of data (fed in pieces cut at `splits` when it streams)."""
        self.keep.clear()
        if self.spec.kind == "callable":
            start = time.perf_counter()
            value = self.function(bytes(data))
            return Answer(_as_digest(value, "the callable"), time.perf_counter() - start)
        if self.spec.kind == "object":
            return self._object(data, splits)
        return self._library(self._place(data, offset, guard), len(data), splits)

    def zeros(self, length: int, splits: tuple[int, ...]) -> Answer:
        """The candidate's SHA-256 of `length` zero bytes: an anonymous mapping, so gigabytes cost
        no memory (untouched pages all read as the one zero page)."""
        self.keep.clear()
        region = zero_mapping(max(length, 1))
        view = ctypes.c_char.from_buffer(region)
        self.keep += [view, region]
        return self._library(ctypes.addressof(view), length, splits)

    def _object(self, data: bytes, splits: tuple[int, ...]) -> Answer:
        start = time.perf_counter()
        hasher = self.function()
        last = 0
        for cut in (*splits, len(data)):
            hasher.update(data[last:cut])
            last = cut
        finish = getattr(hasher, "digest", None) or getattr(hasher, "finalize", None)
        if finish is None:
            raise TypeError(f"the object ({type(hasher).__name__}) has neither digest() nor finalize()")
        return Answer(_as_digest(finish(), "digest()/finalize()"), time.perf_counter() - start)

    def _library(self, address: int, length: int, splits: tuple[int, ...]) -> Answer:
        out = _slacked(32, FILL)
        values: dict[str, Any] = {"out": out, "data": ctypes.c_void_p(address), "len": ctypes.c_size_t(length)}
        notes: dict[str, Any] = {}
        start = time.perf_counter()
        if self.spec.kind == "symbol":
            _call(self.functions[0], self.spec.shapes[0], values)
        else:
            init, update, final = self.functions
            init_shape, update_shape, final_shape = self.spec.shapes
            ctx = _slacked(self.spec.ctx_size)
            values["ctx"] = ctx
            _call(init, init_shape, values)
            last = 0
            for cut in (*splits, length):
                values["data"], values["len"] = ctypes.c_void_p(address + last), ctypes.c_size_t(cut - last)
                _call(update, update_shape, values)
                last = cut
            _call(final, final_shape, values)
            notes["ctx_overrun"] = _overrun(ctx, self.spec.ctx_size)
            notes["ctx_bytes"] = ctypes.string_at(ctx, self.spec.ctx_size)
        seconds = time.perf_counter() - start
        notes["out_overrun"] = _overrun(out, 32)
        notes["out_unwritten"] = ctypes.string_at(out, 32) == _UNTOUCHED[:32]
        return Answer(ctypes.string_at(out, 32), seconds, notes)

    def blobs(self, data: bytes, in_place: bool) -> Answer:
        """The candidate's digest of each 64-byte blob, as SHA256D64(out, in, blocks) or a Merkle
        level's hash(out, in, blocks) gives it."""
        self.keep.clear()
        blocks = len(data) // 64
        source = _slacked(len(data))
        ctypes.memmove(source, data, len(data))
        out = source if in_place else _slacked(32 * blocks, FILL)
        values = {"out": out, "data": source, "blocks": ctypes.c_size_t(blocks), "len": ctypes.c_size_t(len(data))}
        start = time.perf_counter()
        _call(self.functions[0], self.spec.shapes[0], values)
        seconds = time.perf_counter() - start
        size = len(data) if in_place else 32 * blocks
        return Answer(out.raw[: 32 * blocks], seconds, {"out_overrun": _overrun(out, size)})


def _call(function: Any, shape: tuple[str, ...], values: dict[str, Any]) -> None:
    """function(...) with the arguments `shape` names; constants go as pointer-wide integers."""
    args = []
    for word in shape:
        number = shapes.constant(word)
        args.append(values[word] if number is None else ctypes.c_ssize_t(number))
    function(*args)


def _as_digest(value: object, source: str) -> bytes:
    digest = getattr(value, "digest", None)
    if callable(digest):  # a hashlib-style object, e.g. from hashlib.sha256 itself
        value = digest()
    if isinstance(value, str):
        try:
            value = bytes.fromhex(value.strip())
        except ValueError:
            raise ValueError(f"{source} returned a str that is not hex: {value[:80]!r}") from None
    if not isinstance(value, (bytes, bytearray)) or len(value) != 32:
        raise ValueError(f"{source} returned {type(value).__name__} {value!r:.80}, not 32 bytes or 64 hex digits")
    return bytes(value)


def serve(spec: Spec, connection: Any) -> None:
    """The child's loop: load the candidate, then answer one request at a time until told to stop."""
    try:
        loaded = Loaded(spec)
    except CandidateError as exc:
        connection.send(("error", str(exc)))
        return
    connection.send(("ready", ""))
    while True:
        request = connection.recv()
        if request is None:
            return
        op, args = request
        try:
            answer = loaded.blobs(*args) if op == "blobs" else loaded.zeros(*args) if op == "zeros" else \
                loaded.digest(*args)
            connection.send(("ok", answer))
        except Exception as exc:  # a Python-level failure of the candidate is a finding, not a crash of ours
            connection.send(("raised", f"{type(exc).__name__}: {exc}"))
        sys.stdout.flush()
