"""`libsha sum` against GNU sha256sum on this machine: stdout byte for byte, the exit status, and
stderr with the program's name set aside; GNU's -c accepts our lines and we accept GNU's."""

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time

import pytest

import libsha
from support.data import pattern251
from shabench.files import gnu_sha256sum

ENV = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}


GNU = gnu_sha256sum()
needs_gnu = pytest.mark.skipif(GNU is None, reason="needs GNU coreutils' sha256sum to compare with")
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def ours(*args, cwd, stdin=b""):
    return subprocess.run([sys.executable, "-m", "libsha", "sum", *args], cwd=cwd, input=stdin,
                          capture_output=True, env=ENV, timeout=120)


def gnus(*args, cwd, stdin=b""):
    return subprocess.run(["sha256sum", *args], executable=GNU, cwd=cwd, input=stdin, capture_output=True, env=ENV,
                          timeout=120)


def same_as_gnu(*args, cwd, stdin=b"", added=()):
    """Runs both (ours with the `added` options GNU lacks too); asserts the same stdout, status and
    stderr (each program's name set aside)."""
    mine, theirs = ours(*added, *args, cwd=cwd, stdin=stdin), gnus(*args, cwd=cwd, stdin=stdin)
    shown = [os.fsdecode(a) for a in args]
    assert mine.stdout == theirs.stdout, shown
    assert mine.returncode == theirs.returncode, (shown, mine.stderr, theirs.stderr)
    assert mine.stderr.replace(b"libsha sum", b"sha256sum") == theirs.stderr, shown
    return mine


NAMES = [
    "plain.txt", "with space.bin", "new\nline", "back\\slash", "cr\rname", "both\\and\nnew", "é-accent.txt",
    os.fsdecode(b"invalid-\xff.bin"), "*star", " leading space", "it's", "#hash", "a:colon", "tab\there",
    "empty", "block64", "big.bin",
]


# Names that are not there: each error message shows one in GNU's shell quoting.
MISSING = ["missing", "~tilde", "#hash-missing", "it's gone", "é gone", "tab\tgone", "new\ngone", "a'$b", "x=y",
           os.fsdecode(b"bad-\xfe"), "", "semi;colon", "{braces}", "ctrl\x01", "back\\'quote"]


@pytest.fixture
def corpus(tmp_path):
    """Files with awkward names and sizes (0, 64, and across the 128 KiB reads), a directory,
    and an unreadable file where this user cannot read one (root reads anything)."""
    for i, name in enumerate(NAMES):
        size = {"empty": 0, "block64": 64, "big.bin": 300_001}.get(name, 1000 + 37 * i)
        (tmp_path / name).write_bytes(pattern251(size, i))
    (tmp_path / "dir").mkdir()
    unreadable = []
    if not IS_ROOT and os.name == "posix":
        (tmp_path / "locked").write_bytes(b"secret")
        (tmp_path / "locked").chmod(0)
        unreadable.append("locked")
    if sys.platform.startswith("linux"):
        unreadable.append("/proc/self/mem")  # opens, then its first read fails (EIO): a read error
    return tmp_path, unreadable


@needs_gnu
@pytest.mark.parametrize("options", [[], ["-b"], ["-t"], ["--tag"], ["-z"], ["--tag", "-z"]])
@pytest.mark.parametrize("added", [[], ["-j", "1"], ["-j3"]])
def test_files_as_gnu(corpus, options, added):
    path, unreadable = corpus
    same_as_gnu(*options, *NAMES, "dir", *MISSING, *unreadable, "plain.txt", cwd=path, added=added)


@needs_gnu
def test_every_name_alone(corpus):
    path, _ = corpus
    for name in NAMES + ["dir", "missing"]:
        same_as_gnu(name, cwd=path)
        same_as_gnu("--tag", name, cwd=path)


@needs_gnu
@pytest.mark.parametrize("args", [[], ["-"], ["-", "-"], ["plain.txt", "-", "empty"], ["--tag", "-"], ["-z"]])
def test_standard_input(corpus, args):
    path, _ = corpus
    same_as_gnu(*args, cwd=path, stdin=pattern251(200_000, 3))


def test_standard_input_digest(tmp_path):
    data = pattern251(5_000_001, 9)
    result = ours(cwd=tmp_path, stdin=data)
    assert result.returncode == 0
    assert result.stdout == hashlib.sha256(data).hexdigest().encode() + b"  -\n"


@needs_gnu
@pytest.mark.parametrize(
    "args",
    [["--bogus"], ["-x"], ["--tag", "-t", "f"], ["-c", "-b", "f"], ["-c", "-z", "f"], ["-c", "--tag", "f"],
     ["--quiet", "f"], ["--status", "f"], ["--strict", "f"], ["-w", "f"], ["--ignore-missing", "f"],
     ["--st", "f"], ["--tag=x", "f"], ["--ch"], ["--", "-b"]],
)
def test_usage_errors_as_gnu(tmp_path, args):
    (tmp_path / "f").write_bytes(b"f")
    same_as_gnu(*args, cwd=tmp_path)


@pytest.mark.parametrize("args", [["-j"], ["-j", "x"], ["--jobs=-2"], ["-j", "1025"], ["--impl"]])
def test_bad_added_options(tmp_path, args):
    result = ours(*args, cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == b""
    assert result.stderr.startswith(b"libsha sum: ") and b"Try 'libsha sum --help'" in result.stderr


def test_jobs_zero_is_one_per_cpu_as_in_python(tmp_path):
    for i in range(5):
        (tmp_path / f"f{i}").write_bytes(pattern251(1000 * i, i))
    names = [f"f{i}" for i in range(5)]
    zero, one = ours("-j", "0", *names, cwd=tmp_path), ours("--jobs=1", *names, cwd=tmp_path)
    assert zero.returncode == one.returncode == 0 and zero.stdout == one.stdout != b""


def test_progress_when_asked_ends_with_a_line_of_totals_however_quick(tmp_path):
    (tmp_path / "small").write_bytes(pattern251(50_000))
    result = ours("--progress", "small", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.endswith(b"  small\n")
    lines = result.stderr.decode().splitlines()
    assert lines and lines[-1].startswith("48.8 KiB of 48.8 KiB (100%)"), result.stderr
    assert ours("small", cwd=tmp_path).stderr == b""  # not asked, not on a terminal: nothing


@pytest.mark.parametrize("value", ["bogus", "sse4,,avx2"])
def test_an_invalid_libsha_impl_is_one_line_and_status_2(tmp_path, value):
    (tmp_path / "f").write_bytes(b"data")
    env = dict(ENV, LIBSHA_IMPL=value)
    result = subprocess.run([sys.executable, "-m", "libsha", "sum", "f"], cwd=tmp_path, capture_output=True, env=env)
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode().count("\n") == 1 and result.stderr.startswith(f"libsha sum: LIBSHA_IMPL='{value}'".encode())
    assert b"--impl" in result.stderr
    # Naming an implementation is a choice by name: the file is hashed, nothing said.
    named = subprocess.run([sys.executable, "-m", "libsha", "sum", "--impl", "standard", "f"], cwd=tmp_path,
                           capture_output=True, env=env)
    assert named.returncode == 0 and named.stderr == b"" and named.stdout.startswith(hashlib.sha256(b"data").hexdigest().encode())
    version = subprocess.run([sys.executable, "-m", "libsha", "--version"], cwd=tmp_path, capture_output=True, env=env)
    assert version.returncode == 0 and version.stdout.strip() == libsha.library_version().encode()


def test_help_and_version(tmp_path):
    result = ours("--help", cwd=tmp_path)
    assert result.returncode == 0 and b"--check" in result.stdout and b"--jobs" in result.stdout
    result = ours("--version", cwd=tmp_path)
    assert result.returncode == 0 and libsha.library_version().encode() in result.stdout


# ---- check mode ----

def _sums(path, *options):
    listed = [n for n in NAMES if n != "big.bin"] + ["big.bin"]
    return subprocess.run([GNU, *options, *listed], cwd=path, capture_output=True, check=True).stdout


@needs_gnu
@pytest.mark.parametrize("form", [[], ["--tag"], ["-b"]])
def test_check_reads_gnu_lines_and_gnu_reads_ours(corpus, form):
    path, _ = corpus
    theirs = _sums(path, *form)
    mine = ours(*form, *[n for n in NAMES if n != "big.bin"], "big.bin", cwd=path).stdout
    assert mine == theirs
    (path / "gnu.sums").write_bytes(theirs)
    (path / "ours.sums").write_bytes(mine)
    assert same_as_gnu("-c", "gnu.sums", cwd=path).returncode == 0
    assert gnus("-c", "ours.sums", cwd=path).returncode == 0


@needs_gnu
@pytest.mark.parametrize(
    "options",
    [[], ["--quiet"], ["--status"], ["-w"], ["--strict"], ["--ignore-missing"], ["--ignore-missing", "--quiet"],
     ["-w", "--strict"], ["--quiet", "-w"], ["-w", "--status"]],
)
@pytest.mark.parametrize("added", [[], ["-j", "1"]])
def test_check_outcomes_as_gnu(corpus, options, added):
    path, unreadable = corpus
    good = _sums(path)
    tag = _sums(path, "--tag")
    lines = good.splitlines(keepends=True)
    empty_hex = hashlib.sha256(b"").hexdigest()
    text = b"".join([
        b"# a comment\n", b"\n", lines[0], b"not a checksum line\n", lines[1].replace(b"\n", b"\r\n"),
        lines[2].upper() if not lines[2].startswith(b"\\") else lines[2],
        empty_hex.encode() + b"  missing\n", empty_hex.encode() + b"  dir\n",
        *[empty_hex.encode() + b"  " + os.fsencode(u) + b"\n" for u in unreadable],
        b"0" * 64 + b"  plain.txt\n",  # a mismatch
        b"SHA256 (empty) = " + empty_hex.encode() + b"\n", b"SHA256(empty)= " + empty_hex.encode() + b"\n",
        b"SHA256 (empty) = " + empty_hex[:-1].encode() + b"\n",  # one digit short
        b"\\" + empty_hex.encode() + b"  bad\\escape\n", b"  " + empty_hex.encode() + b"  empty\n",
        tag.splitlines(keepends=True)[3],
        b"".join(lines[4:]), b"last line without a newline " + empty_hex.encode(),
    ])
    (path / "mixed.sums").write_bytes(text)
    same_as_gnu("-c", *options, "mixed.sums", cwd=path, added=added)


@needs_gnu
def test_check_special_cases_as_gnu(corpus):
    path, _ = corpus
    empty_hex = hashlib.sha256(b"").hexdigest().encode()
    (path / "garbage.sums").write_bytes(b"nothing here\n")
    (path / "dash.sums").write_bytes(empty_hex + b"  -\n")
    (path / "missing-only.sums").write_bytes(empty_hex + b"  missing\n")
    (path / "reversed.sums").write_bytes(empty_hex + b" empty\n" + empty_hex + b"  empty\n")
    (path / "standard.sums").write_bytes(empty_hex + b"  empty\n" + empty_hex + b" empty\n")
    same_as_gnu("-c", "garbage.sums", cwd=path)
    same_as_gnu("-c", "dash.sums", cwd=path)  # `-` listed: standard input
    same_as_gnu("-c", "-", cwd=path, stdin=empty_hex + b"  -\n")  # refused when the list is stdin
    same_as_gnu("-c", cwd=path, stdin=empty_hex + b"  empty\n")
    same_as_gnu("-c", "--ignore-missing", "missing-only.sums", cwd=path)
    same_as_gnu("-c", "reversed.sums", cwd=path)
    same_as_gnu("-c", "standard.sums", cwd=path)
    same_as_gnu("-c", "no-such.sums", "dash.sums", cwd=path)
    same_as_gnu("-c", "dir", cwd=path)  # opens, then cannot be read
    same_as_gnu("-c", "-w", "garbage.sums", "reversed.sums", cwd=path)


# ---- parallel, implementations, progress ----

@needs_gnu
def test_many_small_files_in_order(tmp_path):
    names = [f"f{i:04d}" for i in range(700)]
    for i, name in enumerate(names):
        (tmp_path / name).write_bytes(pattern251(i * 13 % 5000, i))
    for jobs in ("1", "2", "5"):
        same_as_gnu(*names, cwd=tmp_path, added=["-j", jobs])
    (tmp_path / "list.sums").write_bytes(gnus(*names, cwd=tmp_path).stdout)
    same_as_gnu("-c", "--quiet", "list.sums", cwd=tmp_path)


def test_every_implementation_gives_the_same_lines(corpus, one_stream_row):
    path, _ = corpus
    expected = b"".join(hashlib.sha256((path / n).read_bytes()).hexdigest().encode() + b"  " + n.encode()
                        + b"\n" for n in ("plain.txt", "big.bin", "empty"))
    result = ours("--impl", one_stream_row, "plain.txt", "big.bin", "empty", cwd=path)
    assert (result.returncode, result.stdout, result.stderr) == (0, expected, b"")


def test_an_unknown_implementation_is_refused(tmp_path):
    result = ours("--impl", "no-such", "x", cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == b""
    assert b"--impl no-such: no such implementation" in result.stderr


def test_progress_goes_to_stderr_only(tmp_path):
    big = tmp_path / "sparse"
    with open(big, "wb") as f:
        f.truncate(1 << 30)  # a sparse GiB: read fast, hashed in about half a second
    result = ours("--progress", "sparse", cwd=tmp_path)
    zeros = hashlib.sha256()
    block = bytes(1 << 20)
    for _ in range(1024):
        zeros.update(block)
    assert result.stdout == zeros.hexdigest().encode() + b"  sparse\n"
    assert b"of 1.0 GiB" in result.stderr and b"/s" in result.stderr


# ---- reliability ----

def test_broken_pipe_exits_quietly(tmp_path):
    names = [f"f{i:04d}" for i in range(3000)]  # ~220 KB of lines: more than a pipe holds
    for name in names:
        (tmp_path / name).write_bytes(name.encode())
    proc = subprocess.Popen([sys.executable, "-m", "libsha", "sum", *names], cwd=tmp_path, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert len(proc.stdout.read(1)) == 1
    proc.stdout.close()
    stderr = proc.stderr.read()
    assert proc.wait(timeout=60) in (-signal.SIGPIPE, 0) and stderr == b""
    if GNU is not None:
        gnu = subprocess.Popen([GNU, *names], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        gnu.stdout.read(1)
        gnu.stdout.close()
        assert gnu.wait(timeout=60) == proc.returncode == -signal.SIGPIPE


def _sigint_as_on_a_terminal():
    """In the child before it runs: SIGINT's default action, which Python turns into KeyboardInterrupt.
    A run started in the background by a non-interactive shell (nohup CMD &) inherits SIGINT ignored,
    and Python keeps an ignored SIGINT ignored: Ctrl-C would then rightly do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt_after(args, cwd, delay, stdin=None):
    proc = subprocess.Popen([sys.executable, "-m", "libsha", "sum", *args], cwd=cwd, env=ENV, stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_sigint_as_on_a_terminal)
    time.sleep(delay)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        status = proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        # What the process did with the signal: its masks (blocked, ignored, caught) and its threads.
        with open(f"/proc/{proc.pid}/status") as f:
            masks = [line.strip() for line in f if line.startswith(("SigBlk", "SigIgn", "SigCgt", "Threads", "State"))]
        proc.kill()
        raise AssertionError(f"still running 10 s after SIGINT: {masks}; this test's own SIGINT handler "
                             f"{signal.getsignal(signal.SIGINT)!r}, mask {signal.pthread_sigmask(signal.SIG_BLOCK, [])}")
    return status, time.monotonic() - sent, proc


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_ctrl_c_on_a_large_file_stops_promptly_with_130(tmp_path):
    with open(tmp_path / "sparse", "wb") as f:
        f.truncate(64 << 30)  # half a minute of hashing
    status, took, proc = _interrupt_after(["sparse"], tmp_path, 1.0)
    assert status == 130 and took < 1.0, (status, took)
    assert proc.stdout.read() == b""


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_ctrl_c_while_reading_standard_input(tmp_path):
    status, took, proc = _interrupt_after(["-"], tmp_path, 1.0, stdin=subprocess.PIPE)
    assert status == 130 and took < 1.0, (status, took)
    proc.stdin.close()


def _prefix_digests(data, step, extra):
    """SHA-256 of data[:k] for k where C's reads of the file may have stopped: every multiple of
    step, after the first HEAD bytes every multiple of step more, and each of extra."""
    stops = set(range(0, len(data) + 1, step)) | set(range(HEAD, len(data) + 1, step))
    stops = sorted(stops | {k for k in extra if k <= len(data)})
    h, done, digests = hashlib.sha256(), 0, set()
    for k in stops:
        h.update(data[done:k])
        done = k
        digests.add(h.digest())
    return digests


# libsha's C file reads (files.c): a large file's first SMALL_FILE + 1 bytes, then chunks of
# 32 KiB to 256 KiB (its lanes' reads) or of 64 KiB (READ_SIZE): all multiples of 32 KiB.
HEAD = (16 << 10) + 1
READ = 32 << 10


def test_a_shrinking_file_gives_the_bytes_read(tmp_path):
    path = tmp_path / "shrinks"
    data = pattern251(64 << 20, 5)
    for attempt in range(3):
        path.write_bytes(data)
        with open(path, "r+b") as f:
            proc = subprocess.Popen([sys.executable, "-m", "libsha", "sum", "shrinks"], cwd=tmp_path, env=ENV,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            time.sleep(0.05 * attempt)
            f.truncate(10 << 20)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0 and err == b""
        digest = bytes.fromhex(out.split()[0].decode())
        assert digest in _prefix_digests(data, READ, [10 << 20])


def test_a_growing_file_gives_the_bytes_read(tmp_path):
    path = tmp_path / "grows"
    first = pattern251(8 << 20, 1)
    more = pattern251(24 << 20, 2)
    path.write_bytes(first)
    piece = 1 << 20
    import threading

    def grow():
        with open(path, "ab") as f:
            for k in range(0, len(more), piece):
                f.write(more[k : k + piece])
                f.flush()

    writer = threading.Thread(target=grow)
    writer.start()
    [result] = libsha.sha256_files([path])
    writer.join()
    data = first + more
    assert result in _prefix_digests(data, READ, range(len(first), len(data) + 1, piece))


# ---- the command itself ----

def test_startup_imports_only_the_package(tmp_path):
    (tmp_path / "empty").write_bytes(b"")
    code = ("import sys; from libsha.cli import main; status = main(['sum', 'empty']); "
            "print(' '.join(sorted(sys.modules)), file=sys.stderr); sys.exit(status)")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, env=ENV)
    assert result.returncode == 0 and result.stdout.endswith(b"  empty\n")
    modules = set(result.stderr.decode().split())
    heavy = {"numpy", "pyarrow", "tabulate", "argparse", "polars", "pandas", "threading", "libsha.reference"}
    assert not heavy & modules, heavy & modules


def test_console_script_and_python_m_agree(corpus):
    path, _ = corpus
    script = shutil.which("libsha", path=sysconfig.get_path("scripts"))
    if script is None:
        pytest.skip("the libsha console script is not installed beside this Python")
    result = subprocess.run([script, "sum", "plain.txt", "empty"], cwd=path, capture_output=True, env=ENV)
    assert result.returncode == 0 and result.stdout == ours("plain.txt", "empty", cwd=path).stdout


def test_build_flags_still_answer(tmp_path):
    result = subprocess.run([sys.executable, "-m", "libsha", "--version"], cwd=tmp_path, capture_output=True,
                            text=True)
    assert result.returncode == 0 and result.stdout.strip() == libsha.library_version()
    result = subprocess.run([sys.executable, "-m", "libsha", "--bogus"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 2 and "unknown option '--bogus'" in result.stderr


def test_progress_appears_on_a_terminal_after_two_seconds(tmp_path):
    from libsha.sum.progress import Progress

    class Terminal:
        def __init__(self):
            self.text = ""

        def isatty(self):
            return True

        def write(self, text):
            self.text += text

        def flush(self):
            pass

    (tmp_path / "f").write_bytes(bytes(3 << 20))
    now = [100.0]
    terminal = Terminal()
    progress = Progress(terminal, lambda: 1 << 20, [os.fsencode(tmp_path / "f")], 2.0, clock=lambda: now[0])
    now[0] = 101.9
    progress.tick()
    assert terminal.text == ""  # nothing in the first two seconds
    now[0] = 102.0
    progress.tick()
    assert terminal.text == "\r\033[K1.0 MiB of 3.0 MiB (33%), 512.0 KiB/s"
    now[0] = 102.1
    progress.tick()  # redrawn at most 5 times a second
    assert terminal.text.count("\r") == 1
    progress.clear()
    assert terminal.text.endswith("\r\033[K")


def _shell(command, cwd):
    return subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, env=ENV, timeout=60)


@needs_gnu
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["plain.txt", "missing"], ["-c", "sums"]])
def test_write_errors_are_reported_as_gnu_reports_them(corpus, args):
    path, _ = corpus
    (path / "sums").write_bytes(gnus("plain.txt", "empty", cwd=path).stdout + b"0" * 64 + b"  missing\n")
    python = f"{sys.executable} -m libsha sum {' '.join(args)}"
    gnu = f"{GNU} {' '.join(args)}"
    # A closed stdout: the same messages, the same status.
    mine, theirs = _shell(f"{python} >&-", path), _shell(f"exec -a sha256sum {gnu} >&-", path)
    assert (mine.returncode, mine.stderr.replace(b"libsha sum", b"sha256sum")) == (theirs.returncode, theirs.stderr)
    assert theirs.stderr.endswith(b"write error: Bad file descriptor\n")
    # A full disk: the file messages first, then the write error, status 1 (GNU does not name ENOSPC).
    mine, theirs = _shell(f"{python} > /dev/full", path), _shell(f"exec -a sha256sum {gnu} > /dev/full", path)
    assert mine.returncode == theirs.returncode == 1
    assert mine.stderr.replace(b"libsha sum", b"sha256sum").startswith(theirs.stderr.removesuffix(b"write error\n"))
    assert mine.stderr.endswith(b"libsha sum: write error: No space left on device\n")


def test_closed_stderr_changes_nothing_else(corpus):
    path, _ = corpus
    result = _shell(f"{sys.executable} -m libsha sum missing plain.txt 2>&-", path)  # a message it cannot write
    assert result.returncode == 1 and result.stdout.endswith(b"  plain.txt\n")
