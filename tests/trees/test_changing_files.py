"""Every tree over a file (BEP 52's, Glacier's, IPFS's, Filecoin's, fs-verity's, dm-verity's) on a file that changes while it is
read: the tree of the bytes read, never a signal (a mapped file cut short by another process used
to kill bep52.file_tree's caller with SIGBUS)."""

import os
import subprocess
import sys
import time

import pytest

from libsha import bep52, dmverity, filecoin, fsverity, glacier, ipfs
from libsha._trees import file_blocks

pytestmark = pytest.mark.core

B = 16384  # BEP 52's block; a multiple of the others' here
TREES = {
    "bep52": (lambda path, **kw: bep52.file_tree(path, B, **kw), lambda data: bep52.tree(data, B)),
    "fsverity": (lambda path, **kw: fsverity.file_tree(path, **kw), lambda data: fsverity.tree(data)),
    "dmverity": (lambda path, **kw: dmverity.file_tree(path, **kw), lambda data: dmverity.tree(data)),
    "glacier": (lambda path, **kw: glacier.file_tree_hash(path, **kw), glacier.tree_hash),
    "ipfs": (lambda path, **kw: ipfs.file_cid(path, chunk_size=B, **kw), lambda data: ipfs.cid(data, chunk_size=B)),
    "filecoin": (filecoin.file_piece_commitment, filecoin.piece_commitment),
}
BLOCKS = {"glacier": glacier.LEAF_SIZE, "filecoin": filecoin.PART_BYTES}  # a read a block below: Glacier's leaf is 1 MiB, the others' fit in B
NO_OUT = {"bep52", "glacier", "ipfs", "filecoin"}  # the trees that return their answer only


@pytest.mark.parametrize("tree", TREES)
@pytest.mark.parametrize("change", ["shrinks", "grows"])
def test_a_file_that_changes_between_reads_gives_the_tree_of_what_was_read(tmp_path, rng, monkeypatch, tree, change):
    block = BLOCKS.get(tree, B)
    path = tmp_path / "f"
    path.write_bytes(rng.randbytes(5 * block + 100))
    monkeypatch.setattr(file_blocks, "CHUNK", block)  # one block a read: the file changes after the first
    reads = file_blocks.read_ahead

    def read_then_change(readinto, size):
        calls = []

        def reading(view):  # the file changes as soon as the first read returns
            n = readinto(view)
            if not calls:
                if change == "shrinks":
                    os.truncate(path, block + 100)
                else:
                    with open(path, "ab") as f:
                        f.write(rng.randbytes(20000))
            calls.append(n)
            return n

        yield from reads(reading, size)

    monkeypatch.setattr(file_blocks, "read_ahead", read_then_change)
    file_tree, tree_of = TREES[tree]
    got = file_tree(path)
    read = path.read_bytes()  # as the change left it: every read after the first saw it
    assert len(read) == (block + 100 if change == "shrinks" else 5 * block + 100 + 20000)
    assert got == tree_of(read)


@pytest.mark.parametrize("change", ["shrinks", "grows"])
def test_threads_reading_a_changing_file_give_the_tree_of_what_they_read(tmp_path, rng, monkeypatch, change):
    if not hasattr(os, "preadv"):
        pytest.skip("no os.preadv here (PyPy 3.9, Windows): threads read as one thread does, tested above")
    path = tmp_path / "f"
    before = rng.randbytes(64 * 4096 + 100)
    path.write_bytes(before)
    monkeypatch.setattr(file_blocks, "THREAD_CHUNK", 4096)
    preadv, calls = os.preadv, []

    def preadv_then_change(fd, buffers, offset):
        n = preadv(fd, buffers, offset)
        if not calls:
            if change == "shrinks":
                os.truncate(path, 3 * 4096 + 100)
            else:
                with open(path, "ab") as f:
                    f.write(rng.randbytes(20000))
        calls.append(n)
        return n

    monkeypatch.setattr(os, "preadv", preadv_then_change)
    got = fsverity.file_tree(path, threads=2)
    after = path.read_bytes()
    # Whatever the threads' order, the bytes read are a prefix of the file as it was or as it is.
    source = before if change == "shrinks" else after
    assert got.size <= len(source) and got == fsverity.tree(source[: got.size])
    assert got.size >= len(after) if change == "shrinks" else got.size >= len(before)


def test_a_file_truncated_by_another_process_while_hashed_is_no_signal(tmp_path):
    path = tmp_path / "big"
    with open(path, "wb") as f:
        f.truncate(256 << 20)  # sparse: no time spent writing it
    code = ("import sys\nfrom libsha import bep52, dmverity, fsverity, glacier\n"
            "print('ready', flush=True)\n"
            "for _ in range(10):\n"
            "    for threads in (1, 2):\n"
            "        bep52.file_tree(sys.argv[1], 1 << 20, threads=threads)\n"
            "        fsverity.file_tree(sys.argv[1], threads=threads)\n"
            "        glacier.file_tree_hash(sys.argv[1], threads=threads)\n"
            "        try:\n"
            "            dmverity.file_tree(sys.argv[1], threads=threads)\n"
            "        except ValueError:\n"  # cut to less than a block
            "            pass\n"
            "print('done')")
    child = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.02)  # into the first tree's reads: 256 MiB take longer than this on any CPU
    os.truncate(path, 1000)
    out, _ = child.communicate(timeout=300)
    assert child.returncode == 0 and out.strip() == "done", child.returncode


@pytest.mark.parametrize("tree", TREES)
@pytest.mark.parametrize("threads", [1, 2])
def test_an_io_error_mid_file_names_the_file_and_writes_nothing(tmp_path, rng, monkeypatch, tree, threads):
    block = BLOCKS.get(tree, B)
    path = tmp_path / "f"
    path.write_bytes(rng.randbytes(5 * block + 100))
    monkeypatch.setattr(file_blocks, "CHUNK", block)
    monkeypatch.setattr(file_blocks, "THREAD_CHUNK", block)
    monkeypatch.setattr(file_blocks, "LANE_BLOCKS", 1)
    reads, preadv, calls = file_blocks.read_ahead, getattr(os, "preadv", None), []

    def failing(n):
        calls.append(n)
        if len(calls) == 2:  # the second read: past the first chunk
            raise OSError(5, "Input/output error")

    def read_failing(readinto, size):
        def reading(view):
            failing(0)
            return readinto(view)

        yield from reads(reading, size)

    def preadv_failing(fd, buffers, offset):
        failing(offset)
        return preadv(fd, buffers, offset)

    monkeypatch.setattr(file_blocks, "read_ahead", read_failing)
    if hasattr(os, "preadv"):  # where it is missing, threads read as one thread does
        monkeypatch.setattr(os, "preadv", preadv_failing)
    file_tree, _ = TREES[tree]
    with pytest.raises(OSError) as caught:
        file_tree(path, threads=threads) if tree in NO_OUT else file_tree(path, threads=threads, out=tmp_path / "t")
    assert caught.value.errno == 5 and caught.value.filename == str(path)
    assert sorted(os.listdir(tmp_path)) == ["f"]


@pytest.mark.parametrize("tree", TREES)
def test_a_small_file_that_grows_past_its_block_before_the_read(tmp_path, rng, monkeypatch, tree):
    """A file smaller than a block is read in one read of its size; one that has grown since its
    size was taken is read again as a large file, to its end."""
    data = rng.randbytes(3 * BLOCKS.get(tree, B) + 5)
    path = tmp_path / "f"
    path.write_bytes(data)
    real = os.fstat

    def as_it_was(fd):  # the size it had before it grew
        st = real(fd)
        return os.stat_result((st.st_mode, *st[1:6], 10, *st[7:]))

    monkeypatch.setattr(file_blocks.os, "fstat", as_it_was)
    of_file, of_buffer = TREES[tree]
    got = of_file(path)
    monkeypatch.undo()
    assert got == of_buffer(data)
