"""The candidate under test, loaded and called in a child process.

A candidate is described by a Spec (what the command line named). In the child,
`Loaded(spec)` opens it once; each request hashes one case there. A crash kills
only the child; the parent (runner.py) notices, reports the case, and starts a
new child.
"""

from __future__ import annotations

import ctypes
import importlib
import mmap
import sys
from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


@dataclass(frozen=True)
class Spec:
    """What to check: one of the five candidate shapes of `python -m libsha.oracle`."""

    kind: str  # "symbol", "stream", "d64", "command", "callable"
    library: str = ""
    names: tuple[str, ...] = ()  # symbol; INIT, UPDATE, FINAL; D64 function; MODULE:FUNCTION
    ctx_size: int = 0
    final_out_first: bool = False  # FINAL(out, ctx) instead of FINAL(ctx, out)
    command: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def streaming(self) -> bool:
        return self.kind == "stream"

    @property
    def in_memory(self) -> bool:
        """Whether the candidate reads a buffer we place (offsets, guard pages apply)."""
        return self.kind in ("symbol", "stream", "d64")

    def describe(self) -> str:
        if self.kind == "command":
            return f"--command {self.command!r}"
        if self.kind == "callable":
            return f"--callable {self.names[0]}"
        if self.kind == "stream":
            return f"--library {self.library} --stream {','.join(self.names)} --ctx-size {self.ctx_size}"
        return f"--library {self.library} --{'symbol' if self.kind == 'symbol' else 'd64'} {self.names[0]}"


class CandidateError(Exception):
    """The candidate cannot be loaded or called as described (a usage problem, exit status 2)."""


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


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


class Loaded:
    """The candidate, opened in this (child) process."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.keep: list[Any] = []
        if spec.kind == "callable":
            module, _, name = spec.names[0].partition(":")
            try:
                self.function: Callable[[bytes], Any] = getattr(importlib.import_module(module), name)
            except (ImportError, AttributeError, ValueError) as exc:
                raise CandidateError(f"cannot import {spec.names[0]}: {exc}") from None
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

    def digest(self, data: bytes, splits: tuple[int, ...], offset: int, guard: bool) -> bytes:
        """The candidate's SHA-256 of data (fed in pieces cut at `splits` when it streams)."""
        self.keep.clear()
        spec = self.spec
        if spec.kind == "callable":
            return _as_digest(self.function(bytes(data)))
        address = self._place(data, offset, guard)
        out = ctypes.create_string_buffer(32)
        if spec.kind == "symbol":
            self.functions[0](ctypes.c_void_p(address), ctypes.c_size_t(len(data)), out)
            return out.raw
        init, update, final = self.functions
        ctx = ctypes.create_string_buffer(spec.ctx_size)
        init(ctx)
        last = 0
        for cut in (*splits, len(data)):
            update(ctx, ctypes.c_void_p(address + last), ctypes.c_size_t(cut - last))
            last = cut
        final(*((out, ctx) if spec.final_out_first else (ctx, out)))
        return out.raw

    def zeros(self, length: int, splits: tuple[int, ...]) -> bytes:
        """The candidate's SHA-256 of `length` zero bytes: an anonymous mapping, so gigabytes cost
        no memory (untouched pages all read as the one zero page)."""
        self.keep.clear()
        region = mmap.mmap(-1, max(length, 1))
        view = ctypes.c_char.from_buffer(region)
        address = ctypes.addressof(view)
        self.keep += [view, region]
        out = ctypes.create_string_buffer(32)
        if self.spec.kind == "symbol":
            self.functions[0](ctypes.c_void_p(address), ctypes.c_size_t(length), out)
            return out.raw
        init, update, final = self.functions
        ctx = ctypes.create_string_buffer(self.spec.ctx_size)
        init(ctx)
        last = 0
        for cut in (*splits, length):
            update(ctx, ctypes.c_void_p(address + last), ctypes.c_size_t(cut - last))
            last = cut
        final(*((out, ctx) if self.spec.final_out_first else (ctx, out)))
        return out.raw

    def d64(self, data: bytes, in_place: bool) -> bytes:
        """The candidate's double SHA-256 of each 64-byte blob, as SHA256D64(out, in, blocks)."""
        blocks = len(data) // 64
        source = ctypes.create_string_buffer(data, max(len(data), 1))
        out = source if in_place else ctypes.create_string_buffer(max(32 * blocks, 1))
        self.functions[0](out, source, ctypes.c_size_t(blocks))
        return out.raw[: 32 * blocks]


def _as_digest(value: object) -> bytes:
    digest = getattr(value, "digest", None)
    if callable(digest):  # a hashlib-style object, e.g. from hashlib.sha256 itself
        value = digest()
    if isinstance(value, str):
        try:
            value = bytes.fromhex(value.strip())
        except ValueError:
            raise ValueError(f"the callable returned a str that is not hex: {value[:80]!r}") from None
    if not isinstance(value, (bytes, bytearray)) or len(value) != 32:
        raise ValueError(f"the callable returned {type(value).__name__} {value!r:.80}, not 32 bytes or 64 hex digits")
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
            result = loaded.d64(*args) if op == "d64" else loaded.zeros(*args) if op == "zeros" else \
                loaded.digest(*args)
            connection.send(("ok", result))
        except Exception as exc:  # a Python-level failure of the candidate is a finding, not a crash of ours
            connection.send(("raised", f"{type(exc).__name__}: {exc}"))
        sys.stdout.flush()
