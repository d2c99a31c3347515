#!/usr/bin/env bash
# The binding tests on PyPy, where the ctypes path is the whole binding (no accelerator loads there):
# the package built from this checkout into a PyPy venv in DIR (default build/pypy), then every test
# marked `binding` (pyproject.toml). Needs pypy3 with its venv module (Debian: pypy3, pypy3-venv);
# used by .ci/run, which runs it beside the test suite.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=$(realpath -m "${1:-$repo/build/pypy}")
pypy=${PYPY:-pypy3}
if ! command -v "$pypy" >/dev/null 2>&1; then
  echo "no $pypy here (Debian: apt-get install pypy3 pypy3-venv): the PyPy binding tests did not run"
  exit 0
fi
rm -rf "$dir/venv"
"$pypy" -m venv "$dir/venv"
if ! "$dir/venv/bin/python" -m pip install -q "$repo[test-core]" > "$dir/pip.log" 2>&1; then
  cat "$dir/pip.log" >&2
  exit 1
fi
cd "$dir"  # not the checkout, whose libsha/ would shadow the installed package
"$dir/venv/bin/python" -c "import sys, libsha; print('PyPy', sys.pypy_version_info[:3], 'binding:', libsha.dispatch.binding())"
# The whole output to a log: its last lines here, or on a failure its last 150 (-rfE: what failed
# and why, xdist's own errors too, such as workers that collected different tests).
# --assert=plain: PyPy's JIT now and then fails to compile the AST pytest's assertion rewriting makes
# ("TypeError: 'Constant' object is not iterable" collecting a test file on one worker, seen in CI with
# Debian's PyPy 7.3.11; pytest-dev/pytest#11771, mpmath/mpmath#762). A failed assert still fails the
# test; only its report names fewer values.
status=0
LIBSHA_TEST_ROWS=active "$dir/venv/bin/python" -m pytest "$repo/tests" -q -p no:cacheprovider --assert=plain -m binding -n 2 -rfE --durations=12 > "$dir/pytest.log" 2>&1 \
  || status=$?
if [ "$status" -ne 0 ]; then
  tail -n 150 "$dir/pytest.log"
  exit "$status"
fi
# Where the time went (the slowest tests), then the closing line.
grep -A 12 "slowest [0-9]* durations" "$dir/pytest.log" || true
tail -n 1 "$dir/pytest.log"
