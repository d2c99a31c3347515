"""Tests say what they need by marker, and the runs that leave tests out select by marker: so a test
that builds libsha from source, or emulates, without its marker must fail wherever it runs
(tests/support/markers.py), not build where no checkout or compiler is meant to be."""

import sys

import pytest

from support.markers import needs
from support.paths import ROOT, TESTS

SUPPORT = TESTS  # the folder holding support/

CONFTEST = f"""
import sys

sys.path.insert(0, {str(SUPPORT)!r})
from support.markers import pytest_runtest_protocol  # the plugin, as tests/conftest.py loads it
"""

MODULE = f"""
import subprocess, sys
import pytest

def test_unmarked_cmake():
    subprocess.run(["cmake", "--version"], capture_output=True)

@pytest.mark.build
def test_marked_cmake():
    subprocess.run(["cmake", "--version"], capture_output=True)

def test_unmarked_wheel_of_the_checkout():
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", "wheels", {str(ROOT)!r}])

def test_unmarked_compiler_on_the_library_source():
    subprocess.run(["gcc", "-c", {str(ROOT / 'libsha' / 'src' / 'hex.c')!r}, "-o", "x.o"])

def test_unmarked_qemu():
    subprocess.run(["qemu-x86_64", "--version"], capture_output=True)

def test_unmarked_other_commands_run():
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    subprocess.run(["gcc", "--version"], capture_output=True)
"""


def test_an_unmarked_build_or_emulation_fails_and_a_marked_one_runs(pytester):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_unmarked=MODULE)
    pytester.makeini("[pytest]\nmarkers =\n    build: builds\n    emulated: emulates\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-q")
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed") == 4 and outcomes.get("passed") == 2, result.stdout.str()
    text = result.stdout.str()
    for name in ("test_unmarked_cmake", "test_unmarked_wheel_of_the_checkout",
                 "test_unmarked_compiler_on_the_library_source"):
        assert f"{name} runs" in text and "without the @pytest.mark.build marker" in text, text
    assert "without the @pytest.mark.emulated marker" in text, text


@pytest.mark.parametrize("argv, marker", [
    (["cmake", "-S", "."], "build"),
    (["/usr/bin/ctest", "--test-dir", "b"], "build"),
    (["x86_64-w64-mingw32-gcc", str(ROOT / "libsha" / "src" / "one_message" / "one_message.c")], "build"),
    (["clang-14", "-c", str(ROOT / "libsha" / "src" / "kernels" / "avx2_8way.c")], "build"),
    ([sys.executable, "-m", "pip", "wheel", str(ROOT)], "build"),
    ([sys.executable, "-m", "build", "--sdist", str(ROOT)], "build"),
    (["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "prog"], "emulated"),
    (["wine64", "test.exe"], "emulated"),
    (["cc", "-shared", str(ROOT / "tests" / "data" / "oracle_gallery.c")], None),  # not the library
    ([sys.executable, "-m", "pip", "install", "numpy"], None),
    (["gcc", "--version"], None),
])
def test_which_commands_need_which_marker(argv, marker):
    assert needs(argv) == marker
