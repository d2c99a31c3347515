"""Many hash objects updated at once: update_many, over libsha.sha256 or libsha.HMAC objects."""

from __future__ import annotations

import ctypes
from contextlib import ExitStack

from .. import _native
from .._binding import take_accelerated
from .._buffers import borrow
from .._errors import a_type, check
from .._one import hmac as _hmac
from .._one import sha256 as _sha256
from .._views import item_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Iterable

    from typing_extensions import Buffer

_WHAT = "chunks are bytes-like objects"


def update_many(hashers: Iterable[_sha256.sha256 | _hmac.HMAC], chunks: Iterable[Buffer], /) -> None:
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
    _update_streams(hashers, views, hmac)


def _update_streams(hashers: list[Any], views: list[memoryview], hmac: bool) -> None:
    """The ctypes path's: every object locked, their contexts' addresses and the chunks' pointers to
    the library's many-streams call (the accelerator's update_many does the same in C)."""
    with ExitStack() as held:
        contexts = _contexts(hashers, held)
        n = len(hashers)
        pointers = (ctypes.c_void_p * n)()
        lens = (ctypes.c_size_t * n)()
        for i, view in enumerate(views):
            pointers[i], lens[i] = held.enter_context(borrow(view, f"chunk {i}", address=True))
        ctxs = (ctypes.c_void_p * n)(*contexts)
        lib = _native.lib()
        update = lib.libsha_hmac_sha256_update_many if hmac else lib.libsha_sha256_update_many
        check(update(ctxs, pointers, lens, n))


def _in_lock_order(hashers: list[Any]) -> list[Any]:
    """The hashers by id: the one order every call takes their locks in, so two calls sharing
    hashers cannot deadlock."""
    return sorted(hashers, key=id)


def _contexts(hashers: list[Any], held: ExitStack) -> list[int]:
    """Each hasher locked (until `held` closes); their C contexts' addresses."""
    for h in _in_lock_order(hashers):
        held.enter_context(h._lock)
    return [ctypes.addressof(h._ctx) for h in hashers]


def _kind(hashers: list[Any]) -> bool:
    """Whether the hashers are HMAC objects (else sha256 ones); TypeError for a mix or anything else."""
    sha256, HMAC = _sha256.sha256, _hmac.HMAC  # (the path's types, looked up at the call)
    hmac = isinstance(hashers[0], HMAC)
    for i, h in enumerate(hashers):
        if isinstance(h, HMAC) != hmac or not isinstance(h, (sha256, HMAC)):
            kinds = "libsha.HMAC" if hmac else "libsha.sha256"
            raise TypeError(
                f"hasher {i} is {a_type(h)}; update_many takes {kinds} objects, all of one kind"
            )
    return hmac


take_accelerated(globals(), _update_streams="update_many")  # the accelerator's where it loads (libsha/_binding.py)
