"""Type checkers see the API: mypy --strict passes on the installed package and on a typed program using it."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.paths import ROOT

pytestmark = [pytest.mark.tooling]

pytest.importorskip("mypy", reason="mypy is not installed (the test extra brings it)")

EXAMPLE = ROOT / "examples" / "typed" / "usage.py"


def mypy(tmp_path, *args):
    # From an empty folder, so mypy reads the installed package (with its py.typed), not a checkout.
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", *args],
                          cwd=tmp_path, capture_output=True, text=True)


def skip_if_editable():
    import libsha
    import libsha.reference

    if Path(libsha.__file__).parent not in Path(libsha.reference.__file__).parents:
        pytest.skip("an editable install maps libsha.reference with an import hook, which mypy does not follow")


def test_package_passes_mypy_strict(tmp_path):
    import libsha

    skip_if_editable()  # libsha.oracle imports libsha.reference
    assert (Path(libsha.__file__).parent / "py.typed").is_file()
    result = mypy(tmp_path, "-p", "libsha")
    assert result.returncode == 0, result.stdout + result.stderr


def test_typed_usage_example_passes_mypy_strict_and_runs(tmp_path):
    import libsha
    import libsha.reference

    if not EXAMPLE.is_file():
        pytest.skip("needs the source checkout's examples/")
    skip_if_editable()
    example = tmp_path / "usage.py"
    shutil.copy(EXAMPLE, example)
    result = mypy(tmp_path, str(example))
    assert result.returncode == 0, result.stdout + result.stderr
    run = subprocess.run([sys.executable, str(example)], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_mypy_catches_a_wrong_use(tmp_path):
    # The annotations are real: a str where a buffer is required is a type error.
    wrong = tmp_path / "wrong.py"
    wrong.write_text("import libsha\nlibsha.sha256_digest('text')\nx: str = libsha.hmac_sha256(b'k', b'm')\n")
    result = mypy(tmp_path, str(wrong))
    assert result.returncode == 1 and result.stdout.count("error:") == 2, result.stdout
