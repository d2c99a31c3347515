#!/usr/bin/env bash
# The release path, end to end: sdist -> wheel built from the sdist (not the tree) -> auditwheel
# repair (manylinux tag) -> a fresh venv -> the test suite against the installed wheel (minus the
# tests that build from source, as cibuildwheel runs it). The wheels of other CPUs take the same path
# in tools/foreign_wheels.sh.
#   tools/check_dist.sh [WORKDIR]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(realpath -m "${1:-$(mktemp -d)}")
rm -rf "$work" && mkdir -p "$work"
inputs=${LIBSHA_DIST_INPUTS:-$work/inputs}
"$repo/tools/dist_inputs.sh" "$inputs"
tools=$inputs/tools
sdist=$(ls "$inputs"/sdist/libsha-*.tar.gz)
export PATH="$tools/bin:$PATH"  # auditwheel runs patchelf by name
tar tzf "$sdist" > "$work/sdist.txt"
echo "sdist: $(basename "$sdist") ($(wc -l < "$work/sdist.txt") files)"
# Everything needed, nothing stray.
for needed in CMakeLists.txt cmake/libsha_family.cmake pyproject.toml libsha/include/libsha.h libsha/include/libsha_dispatch.h libsha/src/dispatch/dispatch.c libsha/src/kernels/standard_1way.c reference/vectors/SHA256LongMsg.rsp cmake/toolchains/zig.cmake \
              shabench/cli.py tests/one_message/test_nist.py; do
  grep -q "^libsha-[^/]*/$needed$" "$work/sdist.txt" || { echo "sdist lacks $needed" >&2; exit 1; }
done
if grep -E "/(build|dist|\.venv|_skbuild|__pycache__|\.pytest_cache|\.hypothesis)/|\.so$" "$work/sdist.txt"; then
  echo "sdist carries build output (above)" >&2; exit 1
fi

# As every release wheel is built: a kernel family the compiler leaves out fails the build.
"$tools/bin/pip" wheel -q --no-deps -w "$work/wheel" "$sdist" -C cmake.define.LIBSHA_REQUIRE_ALL_KERNELS=ON
"$tools/bin/auditwheel" repair -w "$work/repaired" "$work"/wheel/*.whl >/dev/null
wheel=$(ls "$work"/repaired/*.whl)
echo "wheel: $(basename "$wheel")"
"$tools/bin/python" "$repo/tools/check_wheel.py" "$wheel"
"$tools/bin/python" -m zipfile -l "$wheel" | grep -E "libsha/(libsha\.so|include/libsha\.h)" >/dev/null

# The tests an installed wheel is checked with (tools/foreign_wheels.sh has the same list).
WHEEL_TESTS="not build and not emulated and not external and not slow and not tooling"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$wheel" pytest pytest-xdist hypothesis numpy
cd "$work"  # not the checkout, whose libsha/ would shadow the installed one
"$work/venv/bin/python" -c "import libsha; print('installed wheel:', libsha.__file__, libsha.dispatch.implementation())"
# The `core` tests (the library's own behaviour through both binding paths): what this wheel adds to
# the suite's run is its build from the sdist and its packaging, which the check above and these reach;
# the rest of the suite ran on the same interpreter and paths over the same sources before this.
# Not the tests that build their own library from source or emulate (they test the source, not this
# wheel), nor the oracle's on other libraries: selected by marker (pyproject.toml).
"$work/venv/bin/python" -m pytest "$repo/tests" -q -p no:cacheprovider -n 2 --dist worksteal -m "core and ($WHEEL_TESTS)"
