#!/usr/bin/env bash
# The binding tests on free-threaded CPython, where the accelerator's own build (cp313t) runs with the
# GIL off: the package built from this checkout into a venv in DIR (default build/free-threaded) on the
# python3.13t that tools/free_threaded_python.sh provides (built once, then reused), then every test
# marked `binding` or `free_threaded` (pyproject.toml) on the accelerator's path (the C methods call
# the entry points the ctypes path calls; PyPy's run covers ctypes'), and the free-threaded stress on
# both paths. Used by .ci/run, which runs it beside the test suite.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=$(realpath -m "${1:-$repo/build/free-threaded}")
mkdir -p "$dir"
if ! python=$("$repo/tools/free_threaded_python.sh" 2> "$dir/interpreter.log" | tail -n 1) || [ -z "$python" ]; then
  tail -n 40 "$dir/interpreter.log"
  echo "no free-threaded CPython could be built here: the free-threaded tests did not run" >&2
  exit 1
fi
rm -rf "$dir/venv"
"$python" -m venv "$dir/venv"
# Wheels only for the test tools: hypothesis's newest release has no cp313t wheel and builds Rust.
if ! "$dir/venv/bin/python" -m pip install -q --only-binary hypothesis,numpy "$repo[test-core]" numpy \
    > "$dir/pip.log" 2>&1; then
  cat "$dir/pip.log" >&2
  exit 1
fi
cd "$dir"  # not the checkout, whose libsha/ would shadow the installed package
"$dir/venv/bin/python" -c "
import sys, libsha
build = libsha.dispatch.binding(build=True)
print(sys.version.split()[0], 'GIL enabled:', sys._is_gil_enabled(), 'binding:', build)
assert not sys._is_gil_enabled(), 'importing libsha turned the GIL on'
assert build.startswith('accelerated (cp'), 'the accelerator did not load on free-threaded CPython'
"
status=0
LIBSHA_TEST_ROWS=active LIBSHA_TEST_PATHS=accelerated "$dir/venv/bin/python" -m pytest "$repo/tests" -q -p no:cacheprovider \
  -m "binding or free_threaded" -n 2 -rfE --durations=12 > "$dir/pytest.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  tail -n 150 "$dir/pytest.log"
  exit "$status"
fi
grep -E "test_free_threading" "$dir/pytest.log" || true
# Where the time went (the slowest tests), then the closing line.
grep -A 12 "slowest [0-9]* durations" "$dir/pytest.log" || true
tail -n 1 "$dir/pytest.log"
