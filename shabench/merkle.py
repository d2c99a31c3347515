"""The merkle group: the Merkle trees of Ethereum (SSZ), Certificate Transparency (RFC 6962),
BitTorrent v2 (BEP 52), a file's IPFS CID (beside IPFS's JavaScript importer), Filecoin's piece
commitment (filecoin.py's rows) and Amazon S3 Glacier's tree hash (beside botocore's), and their level call; the kernel's fs-verity and dm-verity trees are
verity.py's rows.

- The level call (1,000,000 x 64 bytes): libsha_sha256_64 per implementation, one C call through
  ctypes an iteration (the call is the work: tens of milliseconds), beside hashtree's kernels in their
  C loop, under the name of the many group's SHA256_MANY_1000000x64b rows (those hash the same
  messages as a general batch, LIBSHA_OFFSETS64, with its per-message checks).
- The trees, one Python call each, in turn with their peers (interleaved): libsha's call beside
  the hashlib loops Python's tree code runs (remerkleable's and the consensus spec's
  `hashlib.sha256(left + right).digest()` per pair; the RFC's tree level by level; BEP 52's 16 KiB
  leaves and pairs), beside hashlib.file_digest of the same file, and beside libtorrent 2's
  create_torrent where the system Python has it (its own process, set-up included).
- SSZ and BEP 52 also per implementation, one C call each through ctypes (the call is the work:
  milliseconds).
"""

import functools
import hashlib
import os

import libsha
from libsha import bep52, glacier, ipfs, rfc6962, ssz
from libsha._cpus import usable_cpus

from .measure import Interleaved
from . import js_peers
from .filecoin import commp_rows
from .merkle_peers import libtorrent_tree, system_python_with_libtorrent
from .rows import Benchmark, timed_on

SSZ_CHUNKS = 1 << 20
CT_LEAVES = 1_000_000
PROOFS = 1000
RECURSION_PROOFS = 1  # a second of hashing each: the RFC's recursion rehashes the tree a proof
BEP52_MIB = 256


def _sha(data):
    return hashlib.sha256(data).digest()


def _ssz_by_hashlib(chunks):
    """merkleize as the spec's Python does it: a level at a time, one hashlib call a pair."""
    level = chunks
    while len(level) > 1:
        level = [_sha(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


def _ct_levels_by_hashlib(entries):
    """The RFC 6962 tree level by level (an odd last node goes up as it is): every level, leaves first."""
    level = [_sha(b"\0" + e) for e in entries]
    levels = [level]
    while len(level) > 1:
        up = [_sha(b"\1" + level[i] + level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            up.append(level[-1])
        levels.append(up)
        level = up
    return levels


def _ct_proof_by_lookup(levels, index):
    """An inclusion proof read from kept levels (the RFC's path, bottom up)."""
    proof = []
    for level in levels[:-1]:
        sibling = index ^ 1
        if sibling < len(level):
            proof.append(level[sibling])
        index //= 2
    return proof


def _split(n):
    """RFC 9162's k: the largest power of two below n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def _ct_mth_by_hashlib(hashes, lo, hi):
    """MTH of leaf hashes [lo, hi) by the RFC's recursion (RFC 9162 §2.1.1)."""
    if hi - lo == 1:
        return hashes[lo]
    k = _split(hi - lo)
    return _sha(b"\1" + _ct_mth_by_hashlib(hashes, lo, lo + k) + _ct_mth_by_hashlib(hashes, lo + k, hi))


def _ct_path_by_hashlib(hashes, m, lo, hi):
    """PATH(m, D[lo:hi]) by the RFC's recursion (§2.1.3.1): each sibling subtree's MTH computed anew."""
    if hi - lo == 1:
        return []
    k = _split(hi - lo)
    if m < k:
        return _ct_path_by_hashlib(hashes, m, lo, lo + k) + [_ct_mth_by_hashlib(hashes, lo + k, hi)]
    return _ct_path_by_hashlib(hashes, m - k, lo + k, hi) + [_ct_mth_by_hashlib(hashes, lo, lo + k)]


@functools.lru_cache(maxsize=None)
def _ssz_data():
    """The chunks (made, and the peer's answer checked, when a row first runs)."""
    data = os.urandom(32 * SSZ_CHUNKS)
    chunks = [data[i : i + 32] for i in range(0, len(data), 32)]
    if ssz.merkleize(data) != _ssz_by_hashlib(chunks):
        raise RuntimeError("the hashlib SSZ loop disagrees with libsha.ssz")
    return data, chunks


def _ssz_rows():
    name = f"SSZ_ROOT_{SSZ_CHUNKS}_chunks"
    entries = {
        f"libsha.ssz.merkleize(bytes) ('{libsha.dispatch.implementation()}', one Python call)":
            lambda: functools.partial(ssz.merkleize, _ssz_data()[0]),
        f"libsha.ssz.merkleize(list of 32-byte bytes) ('{libsha.dispatch.implementation()}', one Python call)":
            lambda: functools.partial(ssz.merkleize, _ssz_data()[1]),
        "hashlib.sha256(left + right).digest() a pair, level by level (remerkleable's and the spec's loop)":
            lambda: functools.partial(_ssz_by_hashlib, _ssz_data()[1]),
    }
    group = Interleaved(entries)
    return [Benchmark(name, runner, 32 * SSZ_CHUNKS, None, True, interleaved=group) for runner in entries]


@functools.lru_cache(maxsize=None)
def _ct_data():
    """The entries, both trees and the proofs' leaves (made and checked when a row first runs)."""
    entries = [os.urandom(32) for _ in range(CT_LEAVES)]
    levels = _ct_levels_by_hashlib(entries)
    if rfc6962.root(rfc6962.leaf_hashes(entries)) != levels[-1][0]:
        raise RuntimeError("the hashlib RFC 6962 loop disagrees with libsha.rfc6962")
    tree = rfc6962.Tree(rfc6962.leaf_hashes(entries))
    indices = [(i * 7919) % CT_LEAVES for i in range(PROOFS)]
    if [tree.inclusion_proof(i) for i in indices[:20]] != [_ct_proof_by_lookup(levels, i) for i in indices[:20]]:
        raise RuntimeError("the hashlib RFC 6962 proofs disagree with libsha.rfc6962")
    return entries, levels, tree, indices


def _ct_rows():
    impl = libsha.dispatch.implementation()

    def ours_root():
        entries = _ct_data()[0]
        return lambda: rfc6962.entries_root(entries)

    def their_root():
        entries = _ct_data()[0]
        return lambda: _ct_levels_by_hashlib(entries)[-1][0]

    root_entries = {f"libsha.rfc6962.entries_root(list) ('{impl}', a Python call)": ours_root,
                    "hashlib, the RFC's tree level by level (a call a leaf and a node)": their_root}

    def ours_proofs():
        _, _, tree, indices = _ct_data()
        return lambda: [tree.inclusion_proof(i) for i in indices]

    def their_proofs():
        _, levels, _, indices = _ct_data()
        return lambda: [_ct_proof_by_lookup(levels, i) for i in indices]

    def recursion_proofs():
        _, levels, tree, indices = _ct_data()
        if _ct_path_by_hashlib(levels[0], indices[1], 0, CT_LEAVES) != tree.inclusion_proof(indices[1]):
            raise RuntimeError("the RFC's PATH recursion disagrees with libsha.rfc6962")
        return lambda: [_ct_path_by_hashlib(levels[0], i, 0, CT_LEAVES) for i in indices[:RECURSION_PROOFS]]

    recursion = (f"hashlib, RFC 9162's PATH recursion over the leaf hashes (each sibling's MTH hashed anew; "
                 f"timed on {RECURSION_PROOFS} of the proofs)")
    proof_entries = {f"libsha.rfc6962.Tree.inclusion_proof ('{impl}', a Python call a proof)": ours_proofs,
                     "a Python loop reading hashlib-built levels (a lookup a level)": their_proofs,
                     recursion: recursion_proofs}
    roots = Interleaved(root_entries)
    proofs = Interleaved(proof_entries, units={recursion: RECURSION_PROOFS})
    return ([Benchmark(f"RFC6962_ROOT_{CT_LEAVES}x32b", r, 32 * CT_LEAVES, None, True, interleaved=roots)
             for r in root_entries]
            + [Benchmark(f"RFC6962_{PROOFS}_INCLUSION_PROOFS_of_{CT_LEAVES}", r, PROOFS, None, True,
                         interleaved=proofs) for r in proof_entries])


def _bep52_by_hashlib(path):
    """BEP 52's root as torrentfile's Python computes it: a hashlib call a 16 KiB block and a pair."""
    leaves = []
    with open(path, "rb") as f:
        while block := f.read(bep52.BLOCK_SIZE):
            leaves.append(_sha(block))
    width = 1
    while width < len(leaves):
        width *= 2
    level = leaves + [bytes(32)] * (width - len(leaves))
    while len(level) > 1:
        level = [_sha(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


PIECE_LENGTH = 1 << 20


@functools.lru_cache(maxsize=None)
def _bep52_file():
    """The file (made, and every peer's answer checked, when a row first runs)."""
    from .files import random_file

    path = random_file(f"bep52-{BEP52_MIB}MiB.bin", BEP52_MIB)
    root, layer = bep52.file_tree(path, PIECE_LENGTH)
    if root != _bep52_by_hashlib(path):
        raise RuntimeError("the hashlib BEP 52 loop disagrees with libsha.bep52")
    if system_python_with_libtorrent() and libtorrent_tree(path, PIECE_LENGTH)[:2] != (root, layer):
        raise RuntimeError("libtorrent's create_torrent disagrees with libsha.bep52")
    return path


def _bep52_rows():
    impl = libsha.dispatch.implementation()
    entries = {
        f"libsha.bep52.file_tree(path) ('{impl}', one Python call)":
            lambda: functools.partial(bep52.file_tree, _bep52_file(), PIECE_LENGTH),
        "hashlib.file_digest(f, 'sha256') of the same file (one Python call)":
            lambda: functools.partial(_file_digest, _bep52_file()),
        "hashlib, a call a 16 KiB block and a pair (torrentfile's loop)":
            lambda: functools.partial(_bep52_by_hashlib, _bep52_file()),
    }
    if usable_cpus() >= 2:
        entries[f"libsha.bep52.file_tree(path, threads=2) ('{impl}', one Python call, 2 threads)"] = \
            lambda: functools.partial(bep52.file_tree, _bep52_file(), PIECE_LENGTH, threads=2)
    libtorrent = "libtorrent 2 create_torrent, v2 only (set_piece_hashes, timed in its own process)"
    if system_python_with_libtorrent():
        entries[libtorrent] = lambda: lambda: libtorrent_tree(_bep52_file(), PIECE_LENGTH)[2]
    group = Interleaved(entries, self_timed={libtorrent})
    rows = [Benchmark(f"BEP52_ROOT_{BEP52_MIB}MiB_file", r, BEP52_MIB << 20, None, True, interleaved=group)
            for r in entries]
    if not system_python_with_libtorrent():
        rows.append(Benchmark(f"BEP52_ROOT_{BEP52_MIB}MiB_file", "libtorrent 2 create_torrent", BEP52_MIB << 20,
                              None, True, left_out="python3-libtorrent is not installed for the system Python"))
    return rows


def _botocore_tree_hash(path):
    from botocore.utils import calculate_tree_hash

    with open(path, "rb") as f:
        return calculate_tree_hash(f)


def _glacier_rows():
    """Glacier's tree hash of the BEP 52 rows' file, beside botocore's (hashlib a 1 MiB leaf and a pair)."""
    impl = libsha.dispatch.implementation()
    name = f"GLACIER_TREE_HASH_{BEP52_MIB}MiB_file"
    peer = "botocore.utils.calculate_tree_hash(f) (hashlib a 1 MiB leaf and a pair)"
    try:
        import botocore.utils  # noqa: F401
    except ImportError:
        return [Benchmark(name, peer, BEP52_MIB << 20, None, True, left_out="botocore is not installed "
                          "(pip install 'libsha[trees]')")]

    def checked():  # every answer checked once, when a row first runs
        path = _bep52_file()
        if _checked_glacier(path) != glacier.file_tree_hash(path).hex():
            raise RuntimeError("botocore's tree hash disagrees with libsha.glacier")
        return path

    entries = {
        f"libsha.glacier.file_tree_hash(path) ('{impl}', one Python call)":
            lambda: functools.partial(glacier.file_tree_hash, checked()),
        peer: lambda: functools.partial(_botocore_tree_hash, checked()),
        f"libsha.sha256_file(path) of the same file ('{impl}', one Python call)":
            lambda: functools.partial(libsha.sha256_file, checked()),
    }
    if usable_cpus() >= 2:
        entries[f"libsha.glacier.file_tree_hash(path, threads=2) ('{impl}', one Python call, 2 threads)"] = \
            lambda: functools.partial(glacier.file_tree_hash, checked(), threads=2)
    group = Interleaved(entries)
    return [Benchmark(name, r, BEP52_MIB << 20, None, True, interleaved=group) for r in entries]


IPFS_PROFILE = "unixfs-v1-2025"


def _ipfs_rows():
    """A file's CID (IPIP-499's unixfs-v1-2025) beside IPFS's JavaScript importer, on the BEP 52 rows' file."""
    impl = libsha.dispatch.implementation()
    name = f"IPFS_CID_{BEP52_MIB}MiB_file"
    peer = f"ipfs-unixfs-importer {IPFS_PROFILE} (Node.js, its own seconds: reading and hashing, no start-up)"

    def checked():  # libsha's CID against the importer's, once, when a row first runs
        path = _bep52_file()
        if not js_peers.unavailable() and _importer_cid(path) != ipfs.file_cid(path, profile=IPFS_PROFILE):
            raise RuntimeError("ipfs-unixfs-importer's CID disagrees with libsha.ipfs")
        return path

    entries = {
        f"libsha.ipfs.file_cid(path, profile='{IPFS_PROFILE}') ('{impl}', one Python call)":
            lambda: functools.partial(ipfs.file_cid, checked(), profile=IPFS_PROFILE),
        f"libsha.sha256_file(path) of the same file ('{impl}', one Python call)":
            lambda: functools.partial(libsha.sha256_file, checked()),
    }
    if usable_cpus() >= 2:
        entries[f"libsha.ipfs.file_cid(path, profile='{IPFS_PROFILE}', threads=2) ('{impl}', one Python call, "
                "2 threads)"] = lambda: functools.partial(ipfs.file_cid, checked(), profile=IPFS_PROFILE, threads=2)
    why = js_peers.unavailable()
    if not why:
        entries[peer] = lambda: lambda: js_peers.importer_cids([checked()], IPFS_PROFILE, timed=True)[0][1]
    group = Interleaved(entries, self_timed={peer})
    rows = [Benchmark(name, r, BEP52_MIB << 20, None, True, interleaved=group) for r in entries]
    if why:
        rows.append(Benchmark(name, peer, BEP52_MIB << 20, None, True, left_out=why))
    return rows


@functools.lru_cache(maxsize=None)
def _importer_cid(path):
    return js_peers.importer_cids([path], IPFS_PROFILE)[0]


@functools.lru_cache(maxsize=None)
def _checked_glacier(path):
    return _botocore_tree_hash(path)


def _file_digest(path):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256")


@functools.lru_cache(maxsize=None)
def _bep52_buffer():
    return os.urandom(BEP52_MIB << 20)


LEVEL_BLOCKS = 1_000_000  # as the SHA256_MANY_1000000x64b batch, so that the rows sit together


@functools.lru_cache(maxsize=None)
def _level_data():
    """The blocks and the digests' buffer (made when a row first runs)."""
    return os.urandom(64 * LEVEL_BLOCKS), bytearray(32 * LEVEL_BLOCKS)


def _level_call():
    data, out = _level_data()
    libsha.sha256_64(data, out=out)


def _level_rows(implementations):
    return [Benchmark(f"SHA256_MANY_{LEVEL_BLOCKS}x64b", f"libsha_sha256_64, the level call, on '{implementation}' "
                      "(one C call through ctypes)", 64 * LEVEL_BLOCKS, timed_on(implementation, _level_call), True)
            for implementation in implementations]


def _per_implementation(implementation):
    """SSZ and BEP 52 on one implementation: one C call through ctypes an iteration."""
    on = functools.partial(timed_on, implementation)
    return [Benchmark(f"SSZ_ROOT_{SSZ_CHUNKS}_chunks", implementation, 32 * SSZ_CHUNKS,
                      on(lambda: ssz.merkleize(_ssz_data()[0]))),
            Benchmark(f"BEP52_ROOT_{BEP52_MIB}MiB_buffer", implementation, BEP52_MIB << 20,
                      on(lambda: bep52.tree(_bep52_buffer(), PIECE_LENGTH)), max_epochs=5)]


def merkle_benchmarks(implementations):
    from .batch_peers import batch_peer_benchmarks
    from .batches import C_BATCHES

    level = _level_rows(implementations)
    hashtree = [row for row in batch_peer_benchmarks(C_BATCHES, libsha.dispatch.cpu_features())
                if row.name == "SHA256_MANY_1000000x64b" and "hashtree" in row.runner]
    from .verity import verity_benchmarks

    native = [row for impl in implementations for row in _per_implementation(impl)]
    return (level + hashtree + native + _ssz_rows() + _ct_rows() + _bep52_rows() + _ipfs_rows()
            + commp_rows() + _glacier_rows()
            + verity_benchmarks(implementations))
