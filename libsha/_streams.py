"""Many hash objects updated at once: update_many, over libsha.sha256 or libsha.HMAC objects."""

from __future__ import annotations

import ctypes
from contextlib import ExitStack

from . import _native
from ._buffers import borrow, item_view
from ._errors import check
from ._hash import _switch, sha256
from ._hmac import HMAC

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Iterable

    from typing_extensions import Buffer

_WHAT = "chunks are bytes-like objects"


def update_many(hashers: Iterable[sha256 | HMAC], chunks: Iterable[Buffer], /) -> None:
    """hashers[i].update(chunks[i]) for every i, in one call that hashes the streams' whole blocks
    together, several at once in the CPU's lanes (libsha.dispatch.lanes() of them), without the GIL.

    The hashers are all libsha.sha256 objects or all libsha.HMAC objects, each once; a chunk is any
    C-contiguous buffer, read in place. Every argument is checked first: on an error no hasher has
    changed. The result is that of the separate updates, whatever the chunks' sizes.
    """
    hashers = list(hashers)
    chunks = list(chunks)
    if len(hashers) != len(chunks):
        raise ValueError(f"update_many takes one chunk per hasher: {len(hashers)} hashers, {len(chunks)} chunks")
    if not hashers:
        return
    hmac = _kind(hashers)
    seen: dict[int, int] = {}
    for i, h in enumerate(hashers):
        first = seen.setdefault(id(h), i)
        if first != i:
            raise ValueError(f"hasher {i} is hasher {first} again: each stream takes one chunk per call")
    views = [item_view(chunk, f"chunk {i}", _WHAT) for i, chunk in enumerate(chunks)]
    n = len(hashers)
    if not hmac:
        for h in hashers:
            _switch(h)  # a _Streaming from here on (its message so far unchanged)
    # Locks in one global order (by id), so two calls that share hashers cannot deadlock.
    order = sorted(range(n), key=lambda i: id(hashers[i]))
    with ExitStack() as held:
        for i in order:
            held.enter_context(hashers[i]._locked() if not hmac else hashers[i]._lock)  # type: ignore[union-attr]
        if not hmac:
            for h in hashers:
                h._update_context(b"", 0)  # type: ignore[attr-defined]  # kept parts into its context, first
        pointers = (ctypes.c_void_p * n)()
        lens = (ctypes.c_size_t * n)()
        total = 0
        for i, view in enumerate(views):
            pointer, nbytes = held.enter_context(borrow(view, f"chunk {i}"))
            pointers[i] = pointer if not isinstance(pointer, bytes) else ctypes.cast(pointer, ctypes.c_void_p).value
            lens[i] = nbytes
            total += nbytes
        ctxs = (ctypes.c_void_p * n)(*[ctypes.addressof(h._ctx) for h in hashers])  # type: ignore[union-attr]
        lib = _native.lib_for(total)
        if hmac:
            check(lib.libsha_hmac_sha256_update_many(ctxs, pointers, lens, n))
        else:
            check(lib.libsha_sha256_update_many(ctxs, pointers, lens, n))


def _kind(hashers: list[Any]) -> bool:
    """Whether the hashers are HMAC objects (else sha256 ones); TypeError for a mix or anything else."""
    hmac = isinstance(hashers[0], HMAC)
    for i, h in enumerate(hashers):
        if isinstance(h, HMAC) != hmac or not isinstance(h, (sha256, HMAC)):
            kinds = "libsha.HMAC" if hmac else "libsha.sha256"
            raise TypeError(
                f"hasher {i} is a {type(h).__name__}; update_many takes {kinds} objects, all of one kind"
            )
    return hmac

