"""sha256_file and sha256_files against hashlib: paths and file objects, chunk borders, errors in place."""

import errno
import hashlib
import io
import os
from pathlib import Path

import pytest

import libsha
from support.data import pattern251
from support.files import SMALL_FILE
from libsha import _files

pytestmark = pytest.mark.binding


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(_files, "CHUNK", 1000)  # chunk borders within small files
    return 1000


@pytest.mark.parametrize("size", [0, 1, 999, 1000, 1001, 1999, 2000, 2001, 5003])
def test_sizes_across_chunk_borders(tmp_path, small_chunks, size):
    path = tmp_path / "f.bin"
    data = pattern251(size)
    path.write_bytes(data)
    expected = hashlib.sha256(data).digest()
    assert libsha.sha256_file(path) == expected
    assert libsha.sha256_file(str(path)) == expected
    assert libsha.sha256_file(os.fsencode(path)) == expected
    with open(path, "rb") as f:
        assert libsha.sha256_file(f) == expected
    assert libsha.sha256_file(io.BytesIO(data)) == expected


def test_a_file_object_is_read_from_where_it_is(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"header" + pattern251(100))
    with open(path, "rb") as f:
        f.seek(6)
        assert libsha.sha256_file(f) == hashlib.sha256(pattern251(100)).digest()


def test_objects_with_read_only(small_chunks):
    class Reader:
        def __init__(self, data):
            self.stream = io.BytesIO(data)

        def read(self, n):
            return self.stream.read(n)

    data = pattern251(4321)
    assert libsha.sha256_file(Reader(data)) == hashlib.sha256(data).digest()


def test_a_read_error_reaches_the_caller(small_chunks):
    class Failing(io.RawIOBase):
        def __init__(self):
            self.calls = 0

        def readable(self):
            return True

        def readinto(self, buffer):
            self.calls += 1
            if self.calls == 3:
                raise OSError(5, "Input/output error")
            buffer[:10] = b"x" * 10
            return 10

    with pytest.raises(OSError, match="Input/output error"):
        libsha.sha256_file(Failing())


def test_a_growing_file_gives_the_bytes_read(small_chunks):
    class Growing(io.RawIOBase):
        """Returns more data on each read than the file held when hashing began."""

        def __init__(self):
            self.parts = [pattern251(700), pattern251(900, 7), pattern251(300, 3)]

        def readable(self):
            return True

        def readinto(self, buffer):  # as a file does: at most the buffer's size, the rest on the next read
            if not self.parts:
                return 0
            part = self.parts.pop(0)
            n = min(len(part), len(buffer))
            buffer[:n] = part[:n]
            if n < len(part):
                self.parts.insert(0, part[n:])
            return n

    read = pattern251(700) + pattern251(900, 7) + pattern251(300, 3)
    assert libsha.sha256_file(Growing()) == hashlib.sha256(read).digest()


@pytest.mark.parametrize("bad, kind", [(bytearray(b"data"), TypeError), (42, TypeError), (io.StringIO("text"), TypeError)])
def test_bad_arguments(bad, kind):
    with pytest.raises(kind):
        libsha.sha256_file(bad)


def test_files_in_order_with_errors_in_place(tmp_path):
    names = []
    for i in range(40):
        path = tmp_path / f"f{i}"
        path.write_bytes(pattern251(i * 97, i))
        names.append(path)
    names.insert(5, tmp_path / "missing")
    names.insert(9, tmp_path)  # a directory
    for jobs in (0, 1, 3):
        results = libsha.sha256_files(names, jobs=jobs)
        assert isinstance(results[5], FileNotFoundError) and isinstance(results[9], OSError)
        digests = [r for i, r in enumerate(results) if i not in (5, 9)]
        assert digests == [hashlib.sha256(Path(n).read_bytes()).digest() for i, n in enumerate(names) if i not in (5, 9)]
    assert libsha.sha256_files([]) == []
    with pytest.raises(ValueError, match="jobs must be"):
        libsha.sha256_files(names, jobs=-1)
    with pytest.raises(TypeError, match="jobs must be an int"):  # threads=True's rule too (_cpus.worker_count)
        libsha.sha256_files(names, jobs=True)
    assert results[5].filename == str(names[5])


@pytest.mark.parametrize("bad", ["one/path", b"one/path", Path("one/path")])
def test_one_path_instead_of_a_collection_is_refused(bad):
    with pytest.raises(TypeError, match="collection of paths"):
        libsha.sha256_files(bad)


@pytest.mark.parametrize("bad", [[42], [None], [bytearray(b"x")]])
def test_items_that_are_not_paths_or_files_are_refused(bad):
    with pytest.raises(TypeError, match="paths or binary file objects"):
        libsha.sha256_files(bad)


@pytest.mark.parametrize("cpus", [1, 4])  # 4: the workers leave CPUs free, C reads ahead
def test_small_gathered_large_in_lanes_and_file_objects_mixed(tmp_path, monkeypatch, cpus):
    # Every path goes to C, whole: small ones hashed several at once, large ones in the lanes.
    monkeypatch.setattr(_files, "usable_cpus", lambda: cpus)
    monkeypatch.setattr(_files, "CHUNK", 30_000)
    sizes = [0, 1, SMALL_FILE, SMALL_FILE + 1, 99_999, 100_000, 100_001, 250_000, 5, 70_000]
    items = []
    for i, size in enumerate(sizes):
        path = tmp_path / f"f{i}"
        path.write_bytes(pattern251(size, i))
        items.append(path)
    items.insert(3, io.BytesIO(pattern251(123_456, 77)))
    items.insert(7, tmp_path / "missing")
    expected = [hashlib.sha256(i.getvalue() if isinstance(i, io.BytesIO) else i.read_bytes()).digest()
                for i in items if not str(i).endswith("missing")]
    results = libsha.sha256_files(items, jobs=2)
    assert isinstance(results[7], FileNotFoundError)
    assert [r for i, r in enumerate(results) if i != 7] == expected
    # C read every byte of every path, once, and gathered the small ones.
    paths = [os.fsencode(i) for i in items if isinstance(i, Path) and i.exists()]
    hasher = _files.FileHasher(paths, 2)
    assert [d for _, d in hasher.results()] == [hashlib.sha256(Path(os.fsdecode(p)).read_bytes()).digest()
                                                for p in paths]
    assert hasher.bytes_read() == hasher._control.bytes == sum(sizes)
    assert hasher._control.gathered == sum(size <= SMALL_FILE for size in sizes)


def test_sha256_file_of_a_path_goes_to_c_and_raises_its_errno(tmp_path, monkeypatch):
    path = tmp_path / "f"
    path.write_bytes(pattern251(300_000, 9))
    monkeypatch.setattr(_files, "_digest", lambda *args: pytest.fail("a path read by Python"))
    assert libsha.sha256_file(path) == hashlib.sha256(pattern251(300_000, 9)).digest()
    with pytest.raises(FileNotFoundError) as missing:
        libsha.sha256_file(tmp_path / "missing")
    assert missing.value.filename == str(tmp_path / "missing")
    with pytest.raises(OSError) as directory:  # IsADirectoryError on POSIX, PermissionError on Windows
        libsha.sha256_file(tmp_path)
    assert directory.value.errno in (errno.EISDIR, errno.EACCES)


def test_a_cancelled_hasher_raises_keyboard_interrupt(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 1000)
    hasher = _files.FileHasher([os.fsencode(path)] * 10, 2)
    hasher.cancel()
    with pytest.raises(KeyboardInterrupt):
        list(hasher.results())


def test_jobs_zero_means_the_cpus_this_process_may_use(monkeypatch):
    from libsha import _cpus

    if hasattr(os, "sched_getaffinity"):
        assert _cpus.usable_cpus() == len(os.sched_getaffinity(0))
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
        assert _cpus.usable_cpus() == 1  # a container's mask, not the machine's count
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    assert _cpus.usable_cpus() == (os.cpu_count() or 1)


@pytest.mark.parametrize("bad", ["a\0b", b"a\0b"])
def test_a_path_with_a_nul_is_refused_as_open_refuses_it(tmp_path, bad):
    (tmp_path / "a").write_bytes(b"a file C would hash instead")
    with pytest.raises(ValueError, match="embedded null byte"):
        libsha.sha256_files([tmp_path / "b", os.path.join(os.fsencode(tmp_path), os.fsencode(bad))])
    with pytest.raises(ValueError, match="embedded null byte"):
        libsha.sha256_file(os.path.join(os.fsencode(tmp_path), os.fsencode(bad)))


def test_a_small_file_is_read_without_the_large_buffers(tmp_path, monkeypatch):
    # The two 4 MiB buffers cost milliseconds to allocate: a file known to be smaller never gets them.
    path = tmp_path / "small"
    path.write_bytes(pattern251(300, 4))
    monkeypatch.setattr(_files, "start_new_thread", lambda *args: pytest.fail("a reader thread for 300 bytes"))
    assert libsha.sha256_file(path) == hashlib.sha256(pattern251(300, 4)).digest()
    with open(path, "rb") as f:
        f.seek(100)
        assert libsha.sha256_file(f) == hashlib.sha256(pattern251(300, 4)[100:]).digest()


@pytest.mark.parametrize("size, start", [(0, 0), (100, 7), (3 << 20, 12345), (9 << 20, 0)])
def test_a_bytesio_is_hashed_in_place_from_its_position(monkeypatch, size, start):
    def no_thread(*args):
        raise AssertionError("a BytesIO is hashed in place: no reader thread, no 4 MiB buffers")

    monkeypatch.setattr(_files, "start_new_thread", no_thread)
    data = pattern251(size, 5)
    f = io.BytesIO(data)
    f.seek(start)
    assert libsha.sha256_file(f) == hashlib.sha256(data[start:]).digest()
    assert f.tell() == max(start, size)  # where reading it would have left it
    f.write(b"more")  # no export left behind: the BytesIO can still grow
    assert f.getvalue().endswith(b"more")


@pytest.mark.parametrize("content", [b"ascii text\n", bytes(range(256)) * 40, "latin-1 \xe9".encode("latin-1") * 30000])
@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
def test_a_text_mode_file_is_refused_before_a_byte_is_read(tmp_path, content, encoding):
    path = tmp_path / "f"
    path.write_bytes(content)
    with open(path, encoding=encoding) as text:
        with pytest.raises(TypeError, match="binary file, not a text one"):
            libsha.sha256_file(text)
        assert text.tell() == 0 and text.buffer.tell() == 0  # nothing read, nothing decoded
        with pytest.raises(TypeError, match="binary file, not a text one"):
            libsha.sha256_files([path, text])
        assert text.buffer.tell() == 0
    assert libsha.sha256_file(io.BytesIO(content)) == hashlib.sha256(content).digest()  # the same bytes, binary


def test_an_object_reading_str_is_refused_before_it_reads():
    class TextReader:
        calls = []

        def read(self, n=-1):
            self.calls.append(n)
            return "" if n == 0 else "abc"

    reader = TextReader()
    with pytest.raises(TypeError, match="binary file, not a text one"):
        libsha.sha256_file(reader)
    assert reader.calls == [0]  # the probe alone: read(0) consumes nothing
    with pytest.raises(TypeError, match="binary file, not a text one"):
        libsha.sha256_file(io.StringIO("abc"))
