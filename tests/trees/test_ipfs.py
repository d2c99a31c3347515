"""libsha.ipfs against IPFS's JavaScript importer (ipfs-unixfs-importer, the version
tools/build_js_peers.sh pins): both profiles of IPIP-499 at every boundary of chunk and level, their
parameters overridden (small chunks and few links, to cross three levels), raw and dag-pb leaves,
CIDv0 and v1, random sizes; Kubo's known value; a file and its bytes; threads; bad input."""

import pytest

from libsha import ipfs
from libsha.reference import ipfs as reference
from support import js_peers as peer
from support.trees import sha256

pytestmark = pytest.mark.core

V0, V1 = "unixfs-v0-2015", "unixfs-v1-2025"


def test_kubos_known_values():
    assert ipfs.cid(b"hello world\n") == "QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o"  # `ipfs add`'s docs
    assert ipfs.cid(b"") == "QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH"  # the empty file, everywhere
    made = ipfs.cid(b"hello world\n", profile=V1)
    assert made.startswith("bafkrei") and made.bytes[:4] == b"\x01\x55\x12\x20"  # one raw leaf: itself


def cases(rng):
    """(size, parameters) at each profile's chunk and level borders, and small ones crossing levels."""
    out = []
    for profile in (V0, V1):
        chunk, links = ipfs.PROFILES[profile][:2]
        sizes = [0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk + 5]
        if profile == V0:  # a full node of leaves, and one past it (44 MiB; unixfs-v1-2025's would be 1 GiB)
            sizes += [links * chunk, links * chunk + 1]
        out += [(size, dict(profile=profile)) for size in sizes]
    for size in (1024, 1025, 4 * 1024, 4 * 1024 + 1, 16 * 1024, 16 * 1024 + 1, 64 * 1024 + 1,
                 rng.randrange(100_000)):
        for raw in (False, True):
            for version in (0, 1):
                out.append((size, dict(chunk_size=1024, max_links=4, raw_leaves=raw, cid_version=version)))
    out.append((rng.randrange(3 << 20), dict(profile=V0, chunk_size=rng.randrange(1, 1 << 20), max_links=3)))
    return out


def test_against_the_javascript_importer(tmp_path, rng):
    why = peer.unavailable()
    if why:
        pytest.skip(why)
    chosen = cases(rng)
    paths, ours = [], []
    for number, (size, params) in enumerate(chosen):
        data = rng.randbytes(size)
        path = tmp_path / f"f{number}"
        path.write_bytes(data)
        paths.append(path)
        made = ipfs.cid(data, **params)
        assert ipfs.file_cid(path, **params) == made == ipfs.cid(data, threads=2, **params), (size, params)
        assert ipfs.file_cid(path, threads=2, **params).bytes == made.bytes
        ours.append(made)
    for params in {tuple(sorted(p.items())) for _, p in chosen}:  # one Node process a parameter set
        numbers = [i for i, (_, p) in enumerate(chosen) if tuple(sorted(p.items())) == params]
        theirs = peer.importer_cids([paths[i] for i in numbers], **dict(params))
        assert [ours[i] for i in numbers] == theirs, dict(params)


def test_the_reference_agrees(rng):
    for size, params in cases(rng):
        if size <= 3 << 20:  # (the reference over hashlib: its DAG logic is pure Python)
            data = rng.randbytes(size)
            assert reference.cid(data, **params, sha256=sha256) == ipfs.cid(data, **params), (size, params)
    assert reference.cid(b"hello world\n") == ipfs.cid(b"hello world\n")  # on its own SHA-256


def test_chunk_sizes_no_power_of_two_across_reads(tmp_path, rng):
    """An IPFS chunk of any size never straddles two of the file's reads (4 MiB, or a thread's 1 MiB):
    it did, and the leaves of a read's partial chunk overran their buffer."""
    data = rng.randbytes(9 * (1 << 20) + 7)
    path = tmp_path / "f"
    path.write_bytes(data)
    for chunk_size in (200_000, 300_001, 1_000_003, (1 << 20) - 1):
        for raw in (False, True):
            params = dict(chunk_size=chunk_size, max_links=3, raw_leaves=raw)
            want = reference.cid(data, **params, sha256=sha256)
            assert ipfs.cid(data, **params) == want, params
            assert ipfs.file_cid(path, **params) == want == ipfs.file_cid(path, threads=2, **params), params


def test_the_cid_string_and_bytes():
    made = ipfs.cid(bytes(600_000), profile=V1, chunk_size=1 << 18)
    assert made.startswith("bafybei") and made.bytes[:2] == b"\x01\x70" and len(made.bytes) == 36
    assert str(made) == made and isinstance(made, str)
    import copy
    import pickle

    again = pickle.loads(pickle.dumps(made))
    assert again == made and again.bytes == made.bytes == copy.copy(made).bytes
    assert ipfs.cid(bytes(600_000)).bytes[:2] == b"\x12\x20" and len(ipfs.cid(b"x").bytes) == 34


def test_bad_input():  # (the errors every tree shares: test_file_tree_errors.py)
    for bad in ("unixfs-v2", None, ["unixfs-v0-2015"]):
        with pytest.raises(ValueError, match="profile must be one of"):
            ipfs.cid(b"x", profile=bad)
    with pytest.raises(ValueError, match="chunk_size must be 1..1048576"):
        ipfs.cid(b"x", chunk_size=0)
    with pytest.raises(ValueError, match="chunk_size must be 1..1048576"):
        ipfs.cid(b"x", chunk_size=(1 << 20) + 1)
    with pytest.raises(ValueError, match="max_links must be 2 or more"):
        ipfs.cid(b"x", max_links=1)
    with pytest.raises(ValueError, match="cid_version must be 0 or 1"):
        ipfs.cid(b"x", cid_version=2)
    with pytest.raises(TypeError, match="raw_leaves must be a bool"):
        ipfs.cid(b"x", raw_leaves=1)
