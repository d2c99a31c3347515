"""Every code block of the README and the docs pages runs as it is written (tests/support/snippets.py
says how a page gives what a block needs): Python blocks in a fresh interpreter (`>>>` blocks as
doctests, their output checked), shell blocks with bash in a copy of the checkout with a HOME of
their own, C blocks compiled and linked against this libsha. A block that cannot run here says why
on its page; nothing else is left out."""

import doctest
import os
import shutil
import subprocess
import sys

import pytest

import libsha.cli
from support.builds import locked, session_folder
from support.snippets import ROOT, c_program, pages, snippets

ALL = [s for page in pages() for s in snippets(page)]
RUN = [s for s in ALL if s.not_run is None]
SKIP = 77  # a shell block's given exits with it (and a line saying why) where what it needs is absent
# Built or cached things, and the caches other workers write while this copy is made (hypothesis's).
SKIPPED_DIRS = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", ".mypy_cache", ".hypothesis"}


def kind(snippet):
    return "doctest" if snippet.language == "python" and snippet.is_doctest else snippet.language


def params(wanted):
    return [pytest.param(s, id=s.name, marks=[getattr(pytest.mark, m) for m in s.marks]) for s in RUN if kind(s) == wanted]


def clean_env(home):
    env = {k: v for k, v in os.environ.items() if k not in ("LIBSHA_IMPL", "LIBSHA_LIBRARY", "PKG_CONFIG_PATH")}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")  # libsha, shabench, python
    env["HOME"] = str(home)
    return env


def run(argv, cwd, env, timeout=900):
    result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    return result


def test_every_block_runs_or_says_why_not():
    assert ALL, "no code block found"
    for s in ALL:
        assert s.language in ("python", "sh", "c"), f"{s.name}: a ```{s.language} block (python, sh or c)"
        assert s.not_run is None or len(s.not_run) > 10, f"{s.name}: 'not run:' needs its reason"
        assert set(s.marks) <= {"build", "emulated", "external", "slow", "tooling"}, f"{s.name}: {s.marks}"
    print("\n".join(f"not run: {s.name}: {s.not_run}" for s in ALL if s.not_run))


@pytest.mark.parametrize("snippet", params("python"))
def test_python_block(snippet, tmp_path):
    script = tmp_path / "snippet.py"
    script.write_text(snippet.given + snippet.code)
    result = run([sys.executable, str(script)], tmp_path, clean_env(tmp_path))
    assert result.returncode == 0 and result.stderr == "", f"{snippet.name}\n{result.stderr}"


@pytest.mark.parametrize("snippet", params("doctest"))
def test_doctest_block(snippet, tmp_path):
    # In a child, as the other blocks: a block may select an implementation or load numpy.
    code = ("import doctest, sys\nglobs = {}\nexec(sys.argv[1], globs)\n"
            "test = doctest.DocTestParser().get_doctest(sys.argv[2], globs, sys.argv[3], sys.argv[3], 0)\n"
            "runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)\nrunner.run(test)\n"
            "sys.exit(1 if runner.failures or not runner.tries else 0)\n")
    result = run([sys.executable, "-c", code, snippet.given, snippet.code, snippet.name], tmp_path, clean_env(tmp_path))
    assert result.returncode == 0, f"{snippet.name}\n{result.stdout}{result.stderr}"


# The C user's build (the README's C quick start, the C API page's blocks): the blocks that make it share
# one copy of the checkout, one at a time, so the first of them builds and installs from nothing and the
# others find its build folder done (cmake configures again, builds nothing), each with a HOME of its own.
C_BUILD = "cmake -S . -B build"


def fresh_copy(copy):
    shutil.copytree(ROOT, copy, ignore=lambda folder, names: [n for n in names if n in SKIPPED_DIRS or n.endswith(".egg-info")])


@pytest.fixture
def checkout_copy(request, tmp_path, tmp_path_factory):
    """(the checkout's copy the block runs in, its HOME)"""
    if not (ROOT / "CMakeLists.txt").exists():
        pytest.skip("the shell blocks run in a copy of the source checkout")
    (tmp_path / "home").mkdir()
    snippet = request.node.callspec.params["snippet"]
    if C_BUILD not in snippet.given + snippet.code:
        fresh_copy(tmp_path / "checkout")
        yield tmp_path / "checkout", tmp_path / "home"
        return
    folder = session_folder(tmp_path_factory) / "snippets-c-build"
    folder.mkdir(exist_ok=True)
    with locked(folder / "lock"):
        copy = folder / "checkout"
        if not copy.exists():
            fresh_copy(copy)
        before = set(os.listdir(copy))
        try:
            yield copy, tmp_path / "home"
        finally:  # what the block made beside its build folder (a.out, the script) goes: the next starts clean
            for name in set(os.listdir(copy)) - before - {"build"}:
                path = copy / name
                shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()


@pytest.mark.parametrize("snippet", params("sh"))
def test_shell_block(snippet, checkout_copy):
    copy, home = checkout_copy
    script = copy / "snippet.sh"
    script.write_text("set -euo pipefail\n" + snippet.given + snippet.code)
    result = run(["bash", str(script)], copy, clean_env(home))
    if result.returncode == SKIP:  # the block's given found a tool or library absent: its last line says which
        pytest.skip(f"{snippet.name}: {result.stdout.strip().splitlines()[-1]}")
    assert result.returncode == 0, f"{snippet.name}\n{result.stdout[-3000:]}{result.stderr[-3000:]}"


@pytest.mark.build  # needs a C compiler
@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler (cc)")
@pytest.mark.parametrize("snippet", params("c"))
def test_c_block(snippet, tmp_path):
    source = tmp_path / "snippet.c"
    source.write_text(c_program(snippet))
    # Compiled as a caller would, against the installed library: a name, a type or an argument
    # count the header does not have is an error here; linking finds every function in the library.
    errors = ["-Werror=implicit-function-declaration", "-Werror=incompatible-pointer-types", "-Werror=int-conversion"]
    result = run(["cc", "-std=c11", *errors, str(source), f"-I{libsha.cli.include_dir()}", libsha.cli.library_path(),
                  "-o", str(tmp_path / "snippet")], tmp_path, clean_env(tmp_path))
    assert result.returncode == 0, f"{snippet.name}\n{result.stderr}"
