"""Certificate Transparency's Merkle tree (RFC 6962, RFC 9162) in C: leaf hashes in the lanes,
roots, the whole tree with inclusion and consistency proofs, their verification, and an
append-only log's state (a compact range).

    from libsha import rfc6962
    hashes = rfc6962.leaf_hashes(entries)      # SHA-256(0x00 || entry) of each, as sha256_many takes them
    rfc6962.root(hashes)                       # the tree's root (the empty tree's: SHA-256 of nothing)
    rfc6962.entries_root(entries)              # the same from the entries, no leaf hash made an object
    tree = rfc6962.Tree(hashes)                # every level kept (about 64 bytes a leaf), for proofs
    proof = tree.inclusion_proof(5)            # and tree.inclusion_proof(5, size=older_size)
    rfc6962.verify_inclusion(hashes[5], 5, len(tree), proof, tree.root())   # True or False
    rfc6962.verify_consistency(m, n, tree.consistency_proof(m, n), old_root, new_root)
    log = rfc6962.Log(); log.append(hashes); log.root()   # O(log n) memory, appended in batches

A leaf hash, root or proof node is 32 bytes; `hashes` arguments are one bytes-like object of whole
32-byte hashes (numpy (n, 32) rows too) or a sequence of them. Verification returns False for any
wrong proof, size, index or hash (one that is not 32 bytes never verifies); only a wrong type or an
int out of 0..2**64-1 raises.
"""

from __future__ import annotations

import ctypes
import struct
import sys

from . import _native
from ._buffers import borrow
from ._errors import check
from ._header import RFC6962_MAX_PROOF, Rfc6962Log
from ._trees.nodes import NotPlain, count, fixed, long_list, node_buffer, node_slices
from ._views import contiguous_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Sequence

__all__ = ["Log", "Tree", "entries_root", "leaf_hash", "leaf_hashes", "node_hash", "root", "verify_consistency",
           "verify_inclusion"]

_LEAF, _NODE = b"\x00", b"\x01"


def leaf_hash(data: Any) -> bytes:
    """SHA-256(0x00 || data): one entry's leaf hash."""
    from ._one.oneshot import sha256_digest

    view = contiguous_view(data, "data")
    return sha256_digest(_LEAF + view.tobytes())


def leaf_hashes(entries: Any, *, threads: int = 1) -> Any:
    """Every entry's leaf hash, in the lanes: `entries` and the result as libsha.sha256_many's (a
    list of bytes, numpy rows, an Arrow, polars or pandas column), each hashed after 0x00."""
    from ._many.messages import sha256_many

    return sha256_many(entries, prefix=_LEAF, threads=threads)


def entries_root(entries: Any) -> bytes:
    """root(leaf_hashes(entries)) without the leaf hashes as objects: from a list or tuple of
    bytes-like entries they go to one buffer, from numpy rows or an Arrow column to one array."""
    if type(entries) is list or type(entries) is tuple:
        from ._many.lists import hash_list_joined
        from ._many.starts import after_prefix

        with after_prefix(_LEAF) as start:
            return root(hash_list_joined(entries, start))
    hashes = leaf_hashes(entries)
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is not None and isinstance(hashes, pyarrow.ChunkedArray):
        hashes = hashes.combine_chunks()
    return root(hashes)


def node_hash(left: Any, right: Any) -> bytes:
    """SHA-256(0x01 || left || right): an interior node from its children's hashes."""
    from ._one.oneshot import sha256_digest

    return sha256_digest(_NODE + fixed(left, "left") + fixed(right, "right"))


def root(hashes: Any) -> bytes:
    """The root of the tree over these leaf hashes (RFC 9162's MTH), in bounded memory."""
    if long_list(hashes):  # a slice at a time, never joined
        log = Log()
        log.append(hashes)
        return log.root()
    data = node_buffer(hashes, "hashes")
    nbytes = len(data) if isinstance(data, bytes) else data.nbytes
    out = ctypes.create_string_buffer(32)
    with borrow(data, "hashes") as (pointer, _):
        check(_native.lib().libsha_rfc6962_root(out, pointer, nbytes // 32), "root")
    return out.raw


class Tree:
    """The whole tree over leaf hashes, every level kept (at most 2n - 1 nodes): its root and its
    proofs for its own size or any smaller one (an older state of the log), with no hashing but
    the right edge of a smaller tree."""

    __slots__ = ("_nodes", "_n")

    def __init__(self, hashes: Any) -> None:
        data = node_buffer(hashes, "hashes")
        n = (len(data) if isinstance(data, bytes) else data.nbytes) // 32
        lib = _native.lib()
        self._n = n
        self._nodes = ctypes.create_string_buffer(32 * max(lib.libsha_rfc6962_tree_nodes(n), 1))
        with borrow(data, "hashes") as (pointer, _):
            check(lib.libsha_rfc6962_tree(self._nodes, pointer, n), "Tree")

    def __len__(self) -> int:
        """The number of leaves."""
        return self._n

    def root(self, size: int | None = None) -> bytes:
        """The root of the tree of the first `size` leaves (all by default)."""
        size = self._size(size)
        if size == 0:
            return root(b"")
        if size == self._n:
            top = _native.lib().libsha_rfc6962_tree_nodes(self._n) - 1
            return self._nodes.raw[32 * top : 32 * top + 32]
        return root(memoryview(self._nodes)[: 32 * size])

    def leaf(self, index: int) -> bytes:
        """Leaf hash `index`."""
        index = count(index, "index")
        if index >= self._n:
            raise IndexError(f"leaf {index} of a tree of {self._n}")
        return self._nodes.raw[32 * index : 32 * index + 32]

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        """The audit path of leaf `index` in the tree of the first `size` leaves (RFC 9162 §2.1.3.1)."""
        size, index = self._size(size), count(index, "index")
        if index >= size:
            raise IndexError(f"leaf {index} is not in a tree of {size}")
        return self._proof(_native.lib().libsha_rfc6962_inclusion_proof, index, size)

    def consistency_proof(self, old_size: int, size: int | None = None) -> list[bytes]:
        """The proof that the tree of `old_size` leaves is the start of that of `size` (RFC 9162
        §2.1.4.1); empty for old_size 0 or size."""
        size, old_size = self._size(size), count(old_size, "old_size")
        if old_size > size:
            raise ValueError(f"old_size {old_size} is past size {size}")
        return self._proof(_native.lib().libsha_rfc6962_consistency_proof, old_size, size)

    def _size(self, size: int | None) -> int:
        if size is None:
            return self._n
        size = count(size, "size")
        if size > self._n:
            raise ValueError(f"size {size} is past the tree's {self._n} leaves")
        return size

    def _proof(self, call: Any, first: int, size: int) -> list[bytes]:
        proof = _PROOF_BUFFER()
        made = ctypes.c_size_t(RFC6962_MAX_PROOF)
        check(call(proof, ctypes.byref(made), self._nodes, self._n, first, size))
        return list(_PROOF_NODES[made.value].unpack_from(proof))


# A proof's buffer, and its nodes cut out as bytes in one call (a slice a node took longer than the
# library's call): a log serving proofs answers one request a proof.
_PROOF_BUFFER = ctypes.c_char * (32 * RFC6962_MAX_PROOF)
_PROOF_NODES = tuple(struct.Struct("32s" * k) for k in range(RFC6962_MAX_PROOF + 1))


def _proof_nodes(proof: Sequence[Any]) -> bytes | None:
    """The proof's nodes end to end, or None when one is not 32 bytes (such a proof never verifies)."""
    if isinstance(proof, (str, bytes, bytearray, memoryview)):
        raise TypeError("proof is a sequence of 32-byte hashes, not one bytes-like object")
    nodes = [contiguous_view(p, "a proof node") for p in proof]
    if any(v.nbytes != 32 for v in nodes):
        return None
    return b"".join(v.tobytes() for v in nodes)


def _hash_or_none(value: Any, name: str) -> bytes | None:
    view = contiguous_view(value, name)
    return view.tobytes() if view.nbytes == 32 else None


def verify_inclusion(leaf_hash: Any, index: int, size: int, proof: Sequence[Any], root: Any) -> bool:
    """Whether `proof` takes `leaf_hash` at `index` to `root` in the tree of `size` leaves
    (RFC 9162 §2.1.3.2)."""
    index, size = count(index, "index"), count(size, "size")
    nodes, leaf, top = _proof_nodes(proof), _hash_or_none(leaf_hash, "leaf_hash"), _hash_or_none(root, "root")
    if nodes is None or leaf is None or top is None:
        return False
    result: int = _native.lib().libsha_rfc6962_verify_inclusion(leaf, index, size, nodes, len(nodes) // 32, top)
    check(min(result, 0))
    return result == 1


def verify_consistency(old_size: int, size: int, proof: Sequence[Any], old_root: Any, root: Any) -> bool:
    """Whether `proof` shows the tree of `old_size` leaves (root `old_root`) is the start of the tree
    of `size` leaves (root `root`) (RFC 9162 §2.1.4.2; old_size 0 is never: such a proof is
    meaningless, as transparency-dev/merkle has it)."""
    old_size, size = count(old_size, "old_size"), count(size, "size")
    nodes, first, second = _proof_nodes(proof), _hash_or_none(old_root, "old_root"), _hash_or_none(root, "root")
    if nodes is None or first is None or second is None:
        return False
    lib = _native.lib()
    result: int = lib.libsha_rfc6962_verify_consistency(old_size, size, nodes, len(nodes) // 32, first, second)
    check(min(result, 0))
    return result == 1


class Log:
    """An append-only log's state: its size and the roots of the perfect subtrees it is made of
    (a compact range, at most 64 nodes), so its root at any size costs O(log n) memory. Leaves are
    appended as leaf hashes, a batch at a time in the lanes. `state()` and `Log.from_state()` save
    and restore it as bytes."""

    __slots__ = ("_log",)

    def __init__(self) -> None:
        self._log = Rfc6962Log()
        _native.lib().libsha_rfc6962_log_init(ctypes.byref(self._log))

    @property
    def size(self) -> int:
        return int(self._log.size)

    def __len__(self) -> int:
        return self.size

    def append(self, hashes: Any) -> None:
        """Appends leaf hashes (one or many: n x 32 bytes, or a sequence of 32-byte hashes)."""
        if long_list(hashes) and self._appended_slices(hashes):
            return
        data = node_buffer(hashes, "hashes")
        n = (len(data) if isinstance(data, bytes) else data.nbytes) // 32
        with borrow(data, "hashes") as (pointer, _):
            check(_native.lib().libsha_rfc6962_log_append(ctypes.byref(self._log), pointer, n), "append")

    def _appended_slices(self, hashes: list[Any] | tuple[Any, ...]) -> bool:
        """A long list of bytes appended a slice at a time, to a copy of the log that replaces it
        once every slice is in (True); False, the log as it was, where a hash is of another kind."""
        grown = Rfc6962Log.from_buffer_copy(self._log)
        lib = _native.lib()
        try:
            for address, n in node_slices(hashes):
                check(lib.libsha_rfc6962_log_append(ctypes.byref(grown), address, n), "append")
        except NotPlain:
            return False
        self._log = grown
        return True

    def root(self) -> bytes:
        out = ctypes.create_string_buffer(32)
        check(_native.lib().libsha_rfc6962_log_root(ctypes.byref(self._log), out))
        return out.raw

    def nodes(self) -> list[bytes]:
        """The perfect subtrees' roots, the largest (leftmost) first: the compact range."""
        size = self.size
        return [bytes(self._log.nodes[level]) for level in reversed(range(64)) if size >> level & 1]

    def state(self) -> bytes:
        """The size (8 bytes, big-endian) and nodes(): what from_state takes back."""
        return self.size.to_bytes(8, "big") + b"".join(self.nodes())

    @classmethod
    def from_state(cls, state: Any) -> Log:
        raw = contiguous_view(state, "state").tobytes()
        if len(raw) < 8:
            raise ValueError("a Log state starts with its 8-byte size")
        size = int.from_bytes(raw[:8], "big")
        levels = [level for level in reversed(range(64)) if size >> level & 1]
        if len(raw) != 8 + 32 * len(levels):
            raise ValueError(f"a Log of size {size} has {len(levels)} nodes: {8 + 32 * len(levels)} bytes, "
                             f"not {len(raw)}")
        log = cls()
        log._log.size = size
        for i, level in enumerate(levels):
            ctypes.memmove(log._log.nodes[level], raw[8 + 32 * i : 40 + 32 * i], 32)
        return log
