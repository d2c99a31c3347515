"""Large files hashed k at a time through the lanes with their reads in a second thread
(libsha/_file_groups.py: sha256_files and `libsha sum` where the workers leave a core free): the
digests, the order, and a file that fails or shrinks mid-way failing alone."""

import errno
import hashlib
import os

import pytest

import libsha
from libsha import _file_groups, _files
from support.data import pattern251
from support.files import digests_of, fed_fifo, files_of

CHUNK = 10_000  # small chunks, so small files take many rounds


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(_file_groups, "CHUNK", CHUNK)
    monkeypatch.setattr(_files, "DEFER_OVER", 20_000)  # C defers anything over this to the groups




@pytest.mark.parametrize("lanes", [2, 3, 16])
def test_groups_give_every_digest_in_order(tmp_path, small_chunks, monkeypatch, lanes):
    monkeypatch.setattr(_files, "usable_cpus", lambda: 2)  # one worker leaves a core free: this path
    jobs = 1
    sizes = [25_000, 0, 120_000, 20_001, 65_536, 99_999, 30_000, 250_000, 21_000]
    paths = files_of(tmp_path, sizes)
    hasher = _files.FileHasher([os.fsencode(p) for p in paths], jobs, lanes)
    assert [d for _, d in hasher.results()] == digests_of(paths)
    assert hasher.bytes_read() == sum(sizes)


def test_sha256_files_and_a_missing_one_among_large_ones(tmp_path, small_chunks):
    paths = files_of(tmp_path, [50_000, 70_000, 90_000])
    items = [paths[0], tmp_path / "missing", paths[1], paths[2]]
    results = libsha.sha256_files(items, jobs=1)
    assert isinstance(results[1], FileNotFoundError)
    assert [r for i, r in enumerate(results) if i != 1] == digests_of(paths)


class _FailingAfter:
    """A file whose reads fail with EIO once `after` bytes have been read."""

    def __init__(self, file, after):
        self._file, self._after, self._read = file, after, 0

    def readinto(self, buffer):
        if self._read >= self._after:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        n = self._file.readinto(buffer)
        self._read += n
        return n

    def close(self):
        self._file.close()


def test_a_file_that_fails_mid_way_fails_alone(tmp_path, monkeypatch):
    paths = files_of(tmp_path, [60_000, 80_000, 45_000, 70_000])
    bad = os.fsencode(paths[1])
    real_open = open

    def opener(path, *args, **kwargs):
        file = real_open(path, *args, **kwargs)
        return _FailingAfter(file, 3 * CHUNK) if path == bad else file

    monkeypatch.setattr(_file_groups, "CHUNK", CHUNK)
    monkeypatch.setattr(_file_groups, "open", opener, raising=False)
    results = _file_groups.hash_group([os.fsencode(p) for p in paths], 2, lambda n: None)
    assert isinstance(results[1], OSError) and results[1].errno == errno.EIO
    assert results[1].filename == os.fsdecode(bad)  # named, as every error sha256_files gives
    expected = digests_of(paths)
    assert [results[i] for i in (0, 2, 3)] == [expected[i] for i in (0, 2, 3)]


def test_a_directory_and_a_fifo_in_a_group(tmp_path):
    paths = files_of(tmp_path, [40_000, 55_000])
    payload = pattern251(123_457, 5)
    with fed_fifo(tmp_path / "fifo", payload) as fifo:
        group = [os.fsencode(paths[0]), os.fsencode(tmp_path), os.fsencode(fifo), os.fsencode(paths[1])]
        results = _file_groups.hash_group(group, 2, lambda n: None)
    assert isinstance(results[1], IsADirectoryError)
    assert results[2] == hashlib.sha256(payload).digest()  # read to its end, in chunks, as a file
    assert [results[0], results[3]] == digests_of(paths)


def test_a_file_that_shrinks_while_its_group_is_hashed(tmp_path, monkeypatch):
    monkeypatch.setattr(_file_groups, "CHUNK", CHUNK)
    original = pattern251(100_000, 7)
    paths = files_of(tmp_path, [90_000, 0, 75_000])
    paths[1].write_bytes(original)
    rounds = []

    def hashed(n):
        rounds.append(n)
        if len(rounds) == 2:
            os.truncate(paths[1], 25_000)  # under what has been read already

    results = _file_groups.hash_group([os.fsencode(p) for p in paths], 3, hashed)
    # It ends where its reads found the end: a digest of a prefix of what it held, never a crash.
    prefixes = {hashlib.sha256(original[:k]).digest() for k in range(0, len(original) + 1, CHUNK)}
    prefixes.add(hashlib.sha256(original[:25_000]).digest())
    assert results[1] in prefixes
    assert [results[0], results[2]] == [hashlib.sha256(pattern251(90_000, 0)).digest(),
                                        hashlib.sha256(pattern251(75_000, 2)).digest()]


def test_cancel_stops_a_group_and_closes_its_files(tmp_path, monkeypatch):
    monkeypatch.setattr(_file_groups, "CHUNK", CHUNK)
    paths = files_of(tmp_path, [80_000, 80_000])
    opened = []
    real_open = open

    def opener(path, *args, **kwargs):
        file = real_open(path, *args, **kwargs)
        opened.append(file)
        return file

    monkeypatch.setattr(_file_groups, "open", opener, raising=False)

    def hashed(n):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _file_groups.hash_group([os.fsencode(p) for p in paths], 2, hashed)
    assert opened and all(f.closed for f in opened)
