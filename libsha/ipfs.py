"""IPFS content identifiers (CIDs) of files, as `ipfs add --only-hash` computes them: UnixFS's
Merkle DAG of fixed-size chunks in the balanced layout, dag-pb nodes with UnixFS `Data` and
`blocksizes`, raw or dag-pb leaves, CIDv0 (base58 `Qm…`) or CIDv1 (base32 `bafy…`, `bafk…`).

    from libsha import ipfs
    ipfs.file_cid("photo.jpg")                              # Kubo's default: 'Qm…' (unixfs-v0-2015)
    ipfs.file_cid("photo.jpg", profile="unixfs-v1-2025")    # 'bafk…' or 'bafy…'
    ipfs.cid(data, chunk_size=1 << 20, raw_leaves=True)     # a profile's parameters, each overridable
    ipfs.cid(data).bytes                                    # the CID's binary form
    ipfs.add(["photos"], wrap=True)                         # `ipfs add -r -w photos`: (name, CID) each

The profiles are IPIP-499's: `unixfs-v0-2015` (256 KiB chunks, 174 links a node, dag-pb leaves,
CIDv0; what `ipfs add` does by default) and `unixfs-v1-2025` (1 MiB chunks, 1,024 links, raw
leaves, CIDv1). The chunks are hashed in the CPU's lanes (raw leaves in place; dag-pb leaves each
framed in its node first); the nodes above are built level by level, a node for every `max_links`
of the level below, until one is left. Directories are plain UnixFS directories; one that Kubo
would shard (a HAMT) is refused with ShardingError.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from ._cpus import worker_count
from ._trees.dag_pb import CID, Node
from ._trees.nodes import count
from ._trees.unixfs_directory import ShardingError, add_paths
from ._trees.unixfs_file import buffer_dag, file_dag
from ._views import contiguous_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Sequence

__all__ = ["CID", "PROFILES", "Added", "Profile", "ShardingError", "add", "cid", "file_cid"]


class Profile(NamedTuple):
    """How a file becomes a DAG: its chunks' size, the links a node holds, raw leaves or dag-pb
    ones, the CID version of the dag-pb nodes (raw leaves are always CIDv1); and how a directory's
    block is estimated against the sharding threshold ("links-bytes": its links' names and CIDs;
    "block-bytes": the block itself)."""

    chunk_size: int
    max_links: int
    raw_leaves: bool
    cid_version: int
    directory_estimate: str = "links-bytes"


PROFILES = {
    "unixfs-v0-2015": Profile(chunk_size=256 << 10, max_links=174, raw_leaves=False, cid_version=0,
                              directory_estimate="links-bytes"),
    "unixfs-v1-2025": Profile(chunk_size=1 << 20, max_links=1024, raw_leaves=True, cid_version=1,
                              directory_estimate="block-bytes"),
}
MAX_CHUNK = 1 << 20  # Kubo's largest chunk (its blocks are at most 1 MiB plus framing)


class Added(NamedTuple):
    """One line of `ipfs add`: what was added (its path as Kubo names it) and its CID."""

    name: str
    cid: CID


def cid(data: Any, *, profile: str = "unixfs-v0-2015", chunk_size: int | None = None, max_links: int | None = None,
        raw_leaves: bool | None = None, cid_version: int | None = None, threads: int = 1) -> CID:
    """The CID of a bytes-like object's contents as a file; threads=N hashes its chunks on N threads
    (0: one per CPU this process may use)."""
    params = _params(profile, chunk_size, max_links, raw_leaves, cid_version)
    workers = worker_count(threads, "threads")
    view = contiguous_view(data, "data")
    return CID(buffer_dag(view, *params[:4], workers).cid)


def file_cid(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], *, profile: str = "unixfs-v0-2015",
             chunk_size: int | None = None, max_links: int | None = None, raw_leaves: bool | None = None,
             cid_version: int | None = None, threads: int = 1) -> CID:
    """The CID of the file at path (`ipfs add --only-hash`'s), read as sha256_file reads (large
    reads, the next one while this one is hashed; never mapped): a file that shrinks or grows
    meanwhile gives the CID of the bytes read. A directory, a vanished file, a failed read: OSError
    naming the file."""
    params = _params(profile, chunk_size, max_links, raw_leaves, cid_version)
    workers = worker_count(threads, "threads")
    return CID(file_dag(path, *params[:4], workers).cid)


def add(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *, wrap: bool = False, hidden: bool = False,
        profile: str = "unixfs-v0-2015", chunk_size: int | None = None, max_links: int | None = None,
        raw_leaves: bool | None = None, cid_version: int | None = None, threads: int = 1,
        progress: Callable[[int], None] | None = None) -> list[Added]:
    """What `ipfs add -r --only-hash PATH...` prints, as (name, CID) pairs in its order: each file
    and symlink, then each directory after those inside it; wrap=True (`-w`) puts the paths in one
    directory, named "" (the last pair). Directories are walked in their names' order, leaving out
    hidden names unless hidden=True; symlinks are added as symlinks. A directory Kubo would shard:
    ShardingError; a FIFO, socket or device inside a directory: ValueError; a path that cannot be
    read: OSError naming it. progress(n), if given, is told of each n bytes hashed (from any of
    the threads)."""
    params = _params(profile, chunk_size, max_links, raw_leaves, cid_version)
    workers = worker_count(threads, "threads")
    for flag, value in (("wrap", wrap), ("hidden", hidden)):
        if not isinstance(value, bool):
            raise TypeError(f"{flag} must be a bool, not {type(value).__name__}")
    given = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if not given:
        raise ValueError("add takes one path or more")
    names = [os.fspath(p) for p in given]
    if not all(isinstance(n, str) for n in names):
        raise TypeError("paths are str or os.PathLike[str]")

    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, not {type(progress).__name__}")

    def of_file(path: str | bytes) -> Node:
        return file_dag(path, *params[:4], workers, progress)

    events = add_paths(names, of_file, params.cid_version, wrap, hidden, params.directory_estimate)
    return [Added(os.fsdecode(name), CID(node.cid)) for name, node in events]


def _params(profile: str, chunk_size: object, max_links: object, raw_leaves: object,
            cid_version: object) -> Profile:
    if not isinstance(profile, str) or profile not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(map(repr, PROFILES))}, not {profile!r}")
    base = PROFILES[profile]
    size = base.chunk_size if chunk_size is None else count(chunk_size, "chunk_size")
    if not 1 <= size <= MAX_CHUNK:
        raise ValueError(f"chunk_size must be 1..{MAX_CHUNK}, not {chunk_size}")
    links = base.max_links if max_links is None else count(max_links, "max_links")
    if links < 2:
        raise ValueError(f"max_links must be 2 or more, not {max_links}")
    if raw_leaves is not None and not isinstance(raw_leaves, bool):
        raise TypeError(f"raw_leaves must be a bool, not {type(raw_leaves).__name__}")
    version = base.cid_version if cid_version is None else cid_version
    if version not in (0, 1) or isinstance(version, bool):
        raise ValueError(f"cid_version must be 0 or 1, not {cid_version!r}")
    return Profile(size, links, base.raw_leaves if raw_leaves is None else bool(raw_leaves), version,
                   base.directory_estimate)


