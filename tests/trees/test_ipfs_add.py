"""libsha.ipfs.add (what `ipfs add -r [-w] --only-hash` adds) against IPFS's JavaScript importer
and against the reference's blocks: nested directories, an empty one, hidden names, wrapping,
symlinks, both profiles, the sharding threshold to the byte; bad paths."""

import os

import pytest

from libsha import ipfs
from libsha.reference import ipfs as reference
from support import js_peers as peer
from support.trees import sha256

pytestmark = pytest.mark.core

V0, V1 = "unixfs-v0-2015", "unixfs-v1-2025"


def make_tree(root, rng):
    """A directory of files of random sizes (some past a chunk), nested, an empty one, hidden ones."""
    files = {"a.txt": 5, "B": 0, "sub/b": 300_000, "sub/deeper/c": rng.randrange(3 << 20), "z/.hidden": 7,
             ".dot/in": 3, "sub/Ä": 1}
    for name, size in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(rng.randbytes(size))
    (root / "empty").mkdir()
    return root


def reference_add(path, profile, hidden, version):
    """(CID, Tsize) of a path by the reference's blocks, and {name: CID} of everything below it."""
    added = {}

    def walk(at, name):
        if os.path.islink(at):
            made = reference.node(reference.symlink_block(os.fsencode(os.readlink(at))), 0, version, sha256)
        elif os.path.isdir(at):
            names = sorted(n for n in os.listdir(at) if hidden or not n.startswith("."))
            entries = {n: walk(os.path.join(at, n), f"{name}/{n}") for n in names}
            made = reference.node(reference.directory_block(entries), sum(t for _, t in entries.values()), version,
                                  sha256)
        else:
            with open(at, "rb") as f:
                made = reference.file_root(f.read(), profile, sha256=sha256)
        added[name] = reference.cid_string(made[0])
        return made

    walk(path, os.path.basename(path))
    return added


@pytest.mark.parametrize("profile", (V0, V1))
def test_a_directory_against_the_importer_and_the_reference(tmp_path, rng, profile):
    root = make_tree(tmp_path / "d", rng)
    version = ipfs.PROFILES[profile].cid_version
    for hidden in (False, True):
        ours = ipfs.add(str(root), profile=profile, hidden=hidden)
        names = [a.name for a in ours]  # Kubo's order: files as added, then directories, inner first
        files = ["d/.dot/in"] * hidden + ["d/B", "d/a.txt", "d/sub/b", "d/sub/deeper/c", "d/sub/Ä"]
        files += ["d/z/.hidden"] * hidden
        dirs = ["d/.dot"] * hidden + ["d/empty", "d/sub/deeper", "d/sub", "d/z", "d"]
        assert names == files + dirs
        assert {a.name: a.cid for a in ours} == reference_add(str(root), profile, hidden, version)
        assert ipfs.add([root], profile=profile, hidden=hidden, threads=2) == ours
    why = peer.unavailable()
    if why:
        pytest.skip(why)
    theirs = peer.importer_add([root], profile=profile)
    ours = {a.name: a.cid for a in ipfs.add(str(root), profile=profile)}
    assert {name: ours[name] for name in theirs} == theirs
    assert theirs["d"] == ours["d"]


def test_wrapped_paths_against_the_importer(tmp_path, rng):
    root = make_tree(tmp_path / "d", rng)
    (tmp_path / "loose.bin").write_bytes(rng.randbytes(70_000))
    paths = [str(tmp_path / "loose.bin"), str(root)]
    for profile in (V0, V1):
        ours = ipfs.add(paths, wrap=True, profile=profile)
        assert ours[0].name == "d/B" and ours[-1].name == "" and ours[-2].name == "d"
        assert ipfs.add(paths[::-1], wrap=True, profile=profile) == ours  # the names' order, not the arguments'
        single = ipfs.add(paths[0], profile=profile)
        assert single == [("loose.bin", ipfs.file_cid(paths[0], profile=profile))]
        why = peer.unavailable()
        if why:
            continue
        theirs = peer.importer_add(paths, profile=profile, wrap=True)
        assert theirs[""] == ours[-1].cid and theirs["d"] == ours[-2].cid, profile


def test_symlinks_are_added_as_symlinks(tmp_path):
    root = tmp_path / "s"
    root.mkdir()
    (root / "target").write_bytes(b"data")
    os.symlink("target", root / "link")
    os.symlink("/nowhere/at/all", root / "dangling")
    added = {a.name: a.cid for a in ipfs.add(str(root))}
    assert added == reference_add(str(root), V0, False, 0)
    assert added["s/link"] != added["s/target"]
    (top,) = ipfs.add(str(root / "link"))  # given itself, a symlink is still not followed (as Kubo)
    assert top == ("link", added["s/link"])


@pytest.mark.parametrize("profile", (V0, V1))
def test_the_sharding_threshold_to_the_byte(tmp_path, profile):
    """At 256 KiB exactly a directory stays plain (and matches the importer); a byte over, Kubo and
    the importer shard it, and libsha refuses it by name."""
    version, estimate = ipfs.PROFILES[profile].cid_version, ipfs.PROFILES[profile].directory_estimate
    empty = reference.file_root(b"", profile, sha256=sha256)

    def size_of(names):
        entries = {n: empty for n in names}
        if estimate == "links-bytes":
            return sum(len(n.encode()) + len(empty[0]) for n in names)
        return len(reference.directory_block(entries))

    names = [f"{i:0200d}" for i in range(262144 // 300)]
    for width, room in ((200, 400), (20, 100)):  # long names, then short ones, to leave room for one more
        while size_of(names) < 262144 - room:
            names.append(f"{len(names):0{width}d}")
    last = 1
    while size_of(names + ["y" * last]) < 262144:
        last += 1
    assert size_of(names + ["y" * last]) == 262144, "no name length lands on the threshold exactly"
    for over, name in ((False, "y" * last), (True, "y" * (last + 1))):
        root = tmp_path / f"over{over}" / "big"
        root.mkdir(parents=True)
        for n in names + [name]:
            (root / n).touch()
        if over:
            with pytest.raises(ipfs.ShardingError, match="'big' has .* 262145 > 262144"):
                ipfs.add(str(root), profile=profile)
            continue
        ours = ipfs.add(str(root), profile=profile)
        assert ours[-1].name == "big"
        why = peer.unavailable()
        if not why:
            assert peer.importer_add([root], profile=profile)["big"] == ours[-1].cid


def test_bad_paths(tmp_path):
    with pytest.raises(FileNotFoundError):
        ipfs.add(str(tmp_path / "missing"))
    d = tmp_path / "d"
    d.mkdir()
    os.mkfifo(d / "pipe")
    with pytest.raises(ValueError, match=r"unrecognized file type for .*pipe: prw"):
        ipfs.add(str(d))
    with pytest.raises(ValueError, match="two paths named 'd'"):
        ipfs.add([str(d), str(tmp_path / "d" / ".." / "d")])
    with pytest.raises(ValueError, match="one path or more"):
        ipfs.add([])
    with pytest.raises(TypeError, match="wrap must be a bool"):
        ipfs.add(str(d), wrap=1)
    with pytest.raises(TypeError, match="paths are str"):
        ipfs.add([b"bytes"])
    os.chmod(d, 0)
    try:
        if os.access(d, os.R_OK):
            pytest.skip("running as root: an unreadable directory is readable")
        with pytest.raises(PermissionError):
            ipfs.add(str(d))
    finally:
        os.chmod(d, 0o755)
