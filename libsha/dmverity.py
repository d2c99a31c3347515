"""dm-verity's hash tree in C: the root hash and hash device `veritysetup format` makes (Android
Verified Boot's hashtree, ChromeOS, systemd's signed images).

    from libsha import dmverity
    t = dmverity.file_tree("rootfs.img", salt=salt)                  # root, tree, data_blocks
    dmverity.tree(data, data_block_size=4096, hash_block_size=4096)  # bytes in memory
    f = dmverity.format("rootfs.img", "rootfs.verity", salt=salt)    # the hash file, as veritysetup writes it
    f.root.hex()                                                     # veritysetup's "Root hash:"

Each data block's digest is SHA-256 of the salt (up to 256 bytes) then the block (format 1) or
the block then the salt (format 0, Chrome OS's), in the CPU's lanes; the digests are packed into
hash blocks, each level above hashes the blocks of the one below, the top level first in the tree.
Whole data blocks only (a short tail is not part of the device), at least one.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import stat
import uuid as _uuid
from typing import NamedTuple

from . import _native
from ._buffers import borrow
from ._cpus import worker_count
from ._errors import check
from ._threads import run_parts
from ._trees.file_blocks import file_leaves
from ._trees.nodes import count
from ._trees.verity import TreeOut, block_size as _block_size, bottom_offset, salt_bytes
from ._views import contiguous_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_SALT", "SUPERBLOCK_SIZE", "Format", "Tree", "file_tree", "format", "superblock", "tree", "tree_size"]

MAX_SALT = 256  # LIBSHA_DMVERITY_MAX_SALT
SUPERBLOCK_SIZE = 512  # LIBSHA_DMVERITY_SUPERBLOCK_SIZE


class Tree(NamedTuple):
    """The root hash, the tree (veritysetup's hash area after its superblock; None where out= took
    it) and the data blocks it covers."""

    root: bytes
    tree: bytes | None
    data_blocks: int


class Format(NamedTuple):
    """What `format` wrote, as veritysetup prints it."""

    root: bytes
    uuid: _uuid.UUID | None  # None: no superblock
    data_blocks: int
    data_block_size: int
    hash_blocks: int
    hash_block_size: int
    salt: bytes
    format: int
    hash_offset: int
    hash_device_size: int  # the hash file's bytes from hash_offset (superblock included)


def tree_size(data_blocks: int, hash_block_size: int = 4096) -> int:
    """The tree's bytes over data_blocks blocks (0 for one block)."""
    size: int = _native.lib().libsha_dmverity_tree_size(
        count(data_blocks, "data_blocks"), _block_size(hash_block_size, "hash_block_size", 512, 65536))
    return size


def _arguments(data_block_size: object, hash_block_size: object, salt: object, format: object,
               threads: object) -> tuple[int, int, bytes, int, int]:
    if format not in (0, 1) or isinstance(format, bool):
        raise ValueError(f"format is 1 (the salt before each block) or 0 (Chrome OS's: after it), not {format!r}")
    return (_block_size(data_block_size, "data_block_size", 512, 65536),
            _block_size(hash_block_size, "hash_block_size", 512, 65536), salt_bytes(salt, MAX_SALT, "dm-verity"),
            int(format), worker_count(threads, "threads"))


def _no_blocks(what: str, data_block_size: int) -> ValueError:
    return ValueError(f"{what} has no whole data block of {data_block_size} bytes: dm-verity needs at least one")


def tree(data: Any, *, data_block_size: int = 4096, hash_block_size: int = 4096, salt: Any = b"", format: int = 1,
         data_blocks: int | None = None, threads: int = 1, out: Any = None) -> Tree:
    """The dm-verity tree of a bytes-like object's whole data blocks (the first data_blocks of them
    where given); threads=N hashes the blocks on N threads (0: one per CPU this process may use)."""
    view = contiguous_view(data, "data")
    dbs, hbs, salted, fmt, workers = _arguments(data_block_size, hash_block_size, salt, format, threads)
    n = _blocks(view.nbytes, dbs, data_blocks, "data")
    size = tree_size(n, hbs)
    where = TreeOut(out, size)
    lib = _native.lib()
    room = ctypes.create_string_buffer(max(size, 1))
    root = ctypes.create_string_buffer(32)
    with borrow(view, "data", address=True) as (address, _):
        if workers == 1 or n < 2:
            check(lib.libsha_dmverity_tree(root, room, address, n, dbs, hbs, salted, len(salted), fmt), "dmverity")
        else:  # the leaves into the tree's bottom level in parts over the threads, then the levels above
            bottom = ctypes.addressof(room) + bottom_offset(size, n, hbs)

            def part(first: int, stop: int) -> int:
                code: int = lib.libsha_dmverity_leaves(bottom + 32 * first, address + dbs * first, stop - first, dbs,
                                                       salted, len(salted), fmt)
                return code

            run_parts(part, n, workers, "dmverity", dbs.__mul__)
            check(lib.libsha_dmverity_tree_of_leaves(root, room, bottom, n, hbs, salted, len(salted), fmt), "dmverity")
    return Tree(root.raw, where.put(room.raw[:size]), n)


def _blocks(nbytes: int, dbs: int, data_blocks: object, what: str) -> int:
    """The data blocks to hash: all the whole ones, or data_blocks of them where it is given."""
    whole = nbytes // dbs
    if data_blocks is None:
        if whole == 0:
            raise _no_blocks(what, dbs)
        return whole
    n = count(data_blocks, "data_blocks")
    if n == 0:
        raise _no_blocks(what, dbs)
    if n > whole:
        raise ValueError(f"data_blocks is {n}, but {what} has {whole} whole blocks of {dbs} bytes")
    return n


def file_tree(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], *, data_block_size: int = 4096,
              hash_block_size: int = 4096, salt: Any = b"", format: int = 1, data_blocks: int | None = None,
              threads: int = 1, out: Any = None) -> Tree:
    """The dm-verity tree of the file (or block device) at path, read as sha256_file reads (large
    reads, the next one while this one is hashed; never mapped): a file that shrinks or grows
    meanwhile gives the tree of the whole blocks read, or the ValueError of too few for data_blocks.
    A directory, a vanished file, a failed read: OSError naming the file."""
    dbs, hbs, salted, fmt, workers = _arguments(data_block_size, hash_block_size, salt, format, threads)
    limit = None if data_blocks is None else dbs * count(data_blocks, "data_blocks")
    if limit == 0:
        raise _no_blocks(os.fsdecode(path), dbs)
    lib = _native.lib()
    where = TreeOut(out)  # its kind checked now, a buffer's size once the file's is known

    def leaves_of(out_address: int, data: int, nbytes: int) -> int:
        code: int = lib.libsha_dmverity_leaves(out_address, data, nbytes // dbs, dbs, salted, len(salted), fmt)
        return code

    leaves, nbytes = file_leaves(path, dbs, leaves_of, workers, "dmverity", partial=False, limit=limit)
    n = _blocks(nbytes, dbs, data_blocks, os.fsdecode(path))
    size = tree_size(n, hbs)
    where.sized(size)
    room = ctypes.create_string_buffer(max(size, 1))
    root = ctypes.create_string_buffer(32)
    check(lib.libsha_dmverity_tree_of_leaves(root, room, leaves, n, hbs, salted, len(salted), fmt), "dmverity")
    return Tree(root.raw, where.put(room.raw[:size]), n)


def superblock(uuid: _uuid.UUID | bytes, data_blocks: int, *, data_block_size: int = 4096,
               hash_block_size: int = 4096, salt: Any = b"", format: int = 1) -> bytes:
    """veritysetup's 512-byte superblock (cryptsetup's struct verity_sb) for such a tree."""
    dbs, hbs, salted, fmt, _ = _arguments(data_block_size, hash_block_size, salt, format, 1)
    raw = uuid.bytes if isinstance(uuid, _uuid.UUID) else bytes(contiguous_view(uuid, "uuid"))
    if len(raw) != 16:
        raise ValueError(f"a UUID is 16 bytes, not {len(raw)}")
    out = ctypes.create_string_buffer(SUPERBLOCK_SIZE)
    check(_native.lib().libsha_dmverity_superblock(out, raw, count(data_blocks, "data_blocks"), dbs, hbs, salted,
                                                   len(salted), fmt), "dmverity")
    return out.raw


def format(data: str | bytes | os.PathLike[str] | os.PathLike[bytes],
           hash: str | bytes | os.PathLike[str] | os.PathLike[bytes], *, salt: Any = b"",
           data_block_size: int = 4096, hash_block_size: int = 4096, format: int = 1, superblock: bool = True,
           uuid: _uuid.UUID | str | None = None, hash_offset: int = 0, data_blocks: int | None = None,
           threads: int = 1) -> Format:
    """`veritysetup format DATA HASH`: the tree of DATA's blocks written to the file HASH at hash_offset
    (a multiple of 512), after veritysetup's superblock (with `uuid`, a new random one where None)
    unless superblock=False, exactly as veritysetup writes it. A new HASH file is created (mode
    0600); an existing one (a partition, an image with the tree after its data) is written in place
    at the offset, its other bytes kept. The tree is made whole before a byte of HASH is written."""
    _, hbs, salted, kind, _ = _arguments(data_block_size, hash_block_size, salt, format, threads)
    offset = count(hash_offset, "hash_offset")
    if offset % 512:
        raise ValueError(f"hash_offset must be a multiple of 512, not {hash_offset}")
    device = None  # the superblock's UUID, checked before the data is read
    if superblock:
        device = _uuid.uuid4() if uuid is None else uuid if isinstance(uuid, _uuid.UUID) else _uuid.UUID(uuid)
    made = file_tree(data, data_block_size=data_block_size, hash_block_size=hbs, salt=salted, format=kind,
                     data_blocks=data_blocks, threads=threads)
    assert made.tree is not None
    if device is not None:
        head = _superblock_of(device, made.data_blocks, data_block_size=data_block_size, hash_block_size=hbs,
                              salt=salted, format=kind)
        # veritysetup's first hash block: the one after the superblock's end (the bytes between are left as
        # they are, as veritysetup leaves them)
        start = -(-(offset + SUPERBLOCK_SIZE) // hbs) * hbs
        pieces = [(offset, head), (start, made.tree)]
    else:
        start = offset // hbs * hbs  # veritysetup counts the offset in whole hash blocks
        pieces = [(start, made.tree)]
    # veritysetup writes the superblock as whole blocks of the page size (or the hash block, if smaller),
    # so a file too short for that block grows to its end, zero-filled: with one data block the tree is
    # empty and the superblock is all the file has
    page = min(mmap.PAGESIZE, hbs)
    end = -(-(offset + SUPERBLOCK_SIZE) // page) * page if superblock else 0
    _write_at(hash, pieces, end)
    return Format(made.root, device, made.data_blocks, data_block_size, len(made.tree) // hbs, hbs, salted, kind,
                  offset, start + len(made.tree) - offset if superblock else len(made.tree))



_superblock_of = superblock


def _write_at(path: Any, pieces: list[tuple[int, bytes]], end: int) -> None:
    """Each (offset, bytes) written to the file at path: created (0600, as veritysetup does) where it
    does not exist, its other bytes left as they are; a regular file shorter than `end` bytes then
    extended to it with zeros (a block device's size is its own)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o600)
    try:
        for offset, data in pieces:
            view = memoryview(data)
            while view:
                written = os.pwrite(fd, view, offset) if hasattr(os, "pwrite") else _seek_write(fd, view, offset)
                view, offset = view[written:], offset + written
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode) and info.st_size < end:
            os.ftruncate(fd, end)
    finally:
        os.close(fd)


def _seek_write(fd: int, data: memoryview, offset: int) -> int:
    os.lseek(fd, offset, os.SEEK_SET)
    return os.write(fd, data)
