"""Large files hashed k at a time through the lanes (libsha_sha256_files' open streams, behind
sha256_files, sha256_file and `libsha sum`), read by the hashing thread or read ahead by a second
one: the digests and their order on every set of lane kernels, and a file that fails, shrinks or
is a FIFO or a directory mid-group, the others still right."""

import errno
import hashlib
import os
import shutil
import subprocess
import sys
import threading

import pytest

import libsha
from libsha import _files
from support.data import pattern251
from support.files import SMALL_FILE, digests_of, fed_fifo, files_of
from support.paths import TESTS

# Sizes around the C loop's borders: SMALL_FILE (gathered up to it, a lane above it), its reads per
# lane (32 to 256 KiB), and a lone file's reads (64 KiB).
SIZES = [0, SMALL_FILE, SMALL_FILE + 1, 40_000, 65_535, 65_536, 65_537, 131_071, 131_072, 131_073, 250_000, 262_144,
         262_145, 700_000, 5, 1_000_003]


@pytest.fixture(params=["read ahead", "no read-ahead"])
def read_ahead(request, monkeypatch):
    """One worker with a second CPU free (C reads ahead in a second thread), or with none."""
    monkeypatch.setattr(_files, "usable_cpus", lambda: 4 if request.param == "read ahead" else 1)
    return request.param == "read ahead"


@pytest.mark.parametrize("jobs", [1, 2])
def test_streams_side_by_side_give_every_digest_in_order(tmp_path, lanes_row, jobs, read_ahead):
    paths = files_of(tmp_path, SIZES + SIZES[::-1])
    hasher = _files.FileHasher([os.fsencode(p) for p in paths], jobs)
    assert bool(hasher._control.read_ahead) == read_ahead
    assert [d for _, d in hasher.results()] == digests_of(paths)
    assert hasher.bytes_read() == 2 * sum(SIZES)
    assert hasher._control.gathered == 2 * sum(size <= SMALL_FILE for size in SIZES)


def test_a_core_left_free_by_the_batches_reads_ahead(monkeypatch):
    # As many workers as CPUs, but one file is one batch: one worker, and the other core reads ahead
    # (`libsha sum BIG` as fast as sha256_file). Two files on two CPUs keep both busy hashing.
    monkeypatch.setattr(_files, "usable_cpus", lambda: 2)
    assert _files.FileHasher([b"one"])._control.read_ahead == 1
    assert _files.FileHasher([b"one", b"two"])._control.read_ahead == 0
    assert _files.FileHasher([b"one", b"two"], 1)._control.read_ahead == 1


def test_one_file_alone_on_every_row(tmp_path, lanes_row, read_ahead):
    paths = files_of(tmp_path, SIZES)
    assert [libsha.sha256_file(p) for p in paths] == digests_of(paths)


def test_a_missing_file_and_a_directory_among_large_ones(tmp_path, read_ahead):
    paths = files_of(tmp_path, [50_000, 70_000, 90_000])
    items = [paths[0], tmp_path / "missing", paths[1], tmp_path, paths[2]]
    results = libsha.sha256_files(items, jobs=1)
    assert isinstance(results[1], FileNotFoundError) and isinstance(results[3], IsADirectoryError)
    assert [results[i] for i in (0, 2, 4)] == digests_of(paths)


def test_a_fifo_streams_in_a_lane_beside_files(tmp_path, read_ahead):
    paths = files_of(tmp_path, [400_000, 55_000])
    payload = pattern251(1_234_567, 5)
    with fed_fifo(tmp_path / "fifo", payload) as fifo:
        results = libsha.sha256_files([paths[0], fifo, paths[1]], jobs=1)
    assert results == [digests_of(paths)[0], hashlib.sha256(payload).digest(), digests_of(paths)[1]]


def test_a_file_that_shrinks_while_its_group_is_hashed(tmp_path, read_ahead):
    original = pattern251(6_000_000, 7)
    paths = files_of(tmp_path, [3_000_000, 0, 2_500_000, 4_000_000])
    paths[1].write_bytes(original)
    done = threading.Event()

    def shrink():
        while not done.is_set():
            os.truncate(paths[1], 1_000_000)  # again and again, while the group runs
            done.wait(0.0005)

    thread = threading.Thread(target=shrink)
    thread.start()
    try:
        results = libsha.sha256_files(paths, jobs=1)
    finally:
        done.set()
        thread.join()
    # It ends where its reads found the end: the digest of a prefix of what it held, never a crash.
    running, prefixes = hashlib.sha256(), set()
    for k in range(0, len(original), 1024):  # every 1 KiB prefix, hashed once in all
        prefixes.add(running.digest())
        running.update(original[k : k + 1024])
    prefixes |= {running.digest(), hashlib.sha256(original[:1_000_000]).digest()}
    assert results[1] in prefixes
    assert [results[i] for i in (0, 2, 3)] == [hashlib.sha256(pattern251(s, i)).digest()
                                                for i, s in ((0, 3_000_000), (2, 2_500_000), (3, 4_000_000))]


def _shim(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or not sys.platform.startswith("linux"):
        pytest.skip("needs a C compiler and Linux (a preloaded read() that fails)")
    shim = tmp_path / "fake_read_eio.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", str(TESTS / "c" / "fake_read_eio.c"), "-o", str(shim), "-ldl"],
                   check=True)
    return shim


@pytest.mark.parametrize("cpus", [1, 4])  # 4: one worker leaves CPUs free, C reads ahead
@pytest.mark.parametrize("sizes", [[900_000, 700_000, 600_000, 800_000], [20_000_000, 12_000_000, 9_000_000]])
def test_a_file_that_fails_mid_way_fails_alone(tmp_path, sizes, cpus):
    paths = files_of(tmp_path, sizes)
    bad = paths[1].with_name("f1-fails-midway")
    paths[1].rename(bad)
    paths[1] = bad
    script = ("import sys, libsha, libsha._files\n"
              f"libsha._files.usable_cpus = lambda: {cpus}\n"
              "for r in libsha.sha256_files(sys.argv[1:], jobs=1):\n"
              "    print(r.hex() if isinstance(r, bytes) else f'{type(r).__name__} {r.errno} {r.filename}')\n")
    # After what is preloaded already (the sanitizers' runtimes, which must come first).
    preload = " ".join(filter(None, [os.environ.get("LD_PRELOAD"), str(_shim(tmp_path))]))
    env = dict(os.environ, LD_PRELOAD=preload, LIBSHA_TEST_EIO_AFTER="300000")
    out = subprocess.run([sys.executable, "-c", script, *map(str, paths)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    expected = [d.hex() for d in digests_of(paths)]
    assert out[1] == f"OSError {errno.EIO} {bad}"
    assert [out[i] for i in (0, 2, 3, 4)[: len(paths) - 1]] == [expected[i] for i in (0, 2, 3, 4)[: len(paths) - 1]]


def test_cancel_stops_streams_and_marks_them(tmp_path, read_ahead):
    paths = files_of(tmp_path, [2_000_000] * 4)
    hasher = _files.FileHasher([os.fsencode(p) for p in paths], 1)
    hasher.cancel()  # before the first read: every file is cancelled, none half-written
    with pytest.raises(KeyboardInterrupt):
        list(hasher.results())


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_batches_cover_every_file_once_and_shrink_towards_the_end(tmp_path, workers):
    paths = [os.fsencode(tmp_path / f"f{i}") for i in range(40_000)]
    batches = _files.FileHasher(paths, workers)._batches
    assert [start for start, _ in batches] == [0] + [end for _, end in batches[:-1]] and batches[-1][1] == 40_000
    sizes = [end - start for start, end in batches]
    assert sizes[0] == min(_files.BATCH, 40_000 // (4 * workers)) and sizes == sorted(sizes, reverse=True)
    # Each worker's share of the last batches is small: the workers finish together.
    assert sum(sizes[-4 * workers:]) < 40_000 // 50
    # Each call holds at least one file per lane of the widest kernel (the last one, what is left).
    assert all(end - start >= _files.MIN_BATCH for start, end in batches[:-1])
    assert {end - start for start, end in _files.FileHasher(paths[:16], 1)._batches} == {16}
    assert {end - start for start, end in _files.FileHasher(paths[:16], 2)._batches} == {8}  # 8 lanes each
