"""The merkle group's Filecoin rows: a 32 MiB payload's piece commitment (a 64 MiB piece; data-segment
takes about 9 s a run of it here, so not 256 MiB), one Python call, beside the level call on the same pairs (libsha_sha256_64 level by level over the
padded piece's leaves that hold data: the work of the tree alone, no fr32, the zero subtrees as
the table skips them) and beside @web3-storage/data-segment's Piece.fromPayload (Node.js, its own
seconds: the file already read)."""

import functools

import libsha
from libsha import filecoin
from libsha._cpus import usable_cpus
from libsha._trees.level import sha256_64

from . import js_peers
from .measure import Interleaved
from .rows import Benchmark

MIB = 32


def payload_file():
    """The payload, MIB MiB of random bytes (made when a row first runs)."""
    from .files import random_file

    return random_file(f"filecoin-{MIB}MiB.bin", MIB)


def commp_rows():
    """The rows."""
    impl = libsha.dispatch.implementation()
    name = f"FILECOIN_COMMP_{MIB}MiB_buffer"
    peer = "@web3-storage/data-segment Piece.fromPayload (Node.js, its own seconds: the payload in memory)"

    @functools.lru_cache(maxsize=None)
    def payload():  # read once; data-segment's answer checked once
        path = payload_file()
        with open(path, "rb") as f:
            data = f.read()
        made = filecoin.piece_commitment(data)
        if not js_peers.unavailable(js_peers.DATA_SEGMENT):
            if js_peers.data_segment_commitments([path])[0] != (made.commp, made.padded_size, made.cid_v1,
                                                                 made.cid_v2):
                raise RuntimeError("data-segment's piece commitment disagrees with libsha.filecoin")
        return data

    @functools.lru_cache(maxsize=None)
    def leaves():  # the padded piece's leaves that hold data, a buffer the level calls hash in place
        return bytearray(32 * (4 * -(-len(payload()) // 127) + 1))

    def level_calls():
        buf, n = leaves(), len(leaves()) // 32 - 1
        view = memoryview(buf)
        while n > 1:
            n += n % 2  # an odd last node paired with its zero subtree
            sha256_64(view[: 32 * n], out=view[: 16 * n])
            n //= 2

    entries = {
        f"libsha.filecoin.piece_commitment(data) ('{impl}', one Python call)":
            lambda: functools.partial(filecoin.piece_commitment, payload()),
        f"libsha.sha256_64 level by level on the same pairs ('{impl}', the tree's work alone)":
            lambda: (payload(), level_calls)[1],
    }
    if usable_cpus() >= 2:
        entries[f"libsha.filecoin.piece_commitment(data, threads=2) ('{impl}', one Python call, 2 threads)"] = \
            lambda: functools.partial(filecoin.piece_commitment, payload(), threads=2)
    why = js_peers.unavailable(js_peers.DATA_SEGMENT)
    if not why:
        entries[peer] = lambda: lambda: js_peers.data_segment_commitments([payload_file()], timed=True)[0][4]
    group = Interleaved(entries, self_timed={peer})
    rows = [Benchmark(name, r, MIB << 20, None, True, interleaved=group) for r in entries]
    if why:
        rows.append(Benchmark(name, peer, MIB << 20, None, True, left_out=why))
    return rows
