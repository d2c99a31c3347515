#!/usr/bin/env bash
# The wheels no machine here can run, built and checked anyway: from the sdist, with zig's C
# compiler (the `ziglang` wheel) for macOS x86_64/arm64 and Windows ARM64, and with mingw-w64 for
# Windows AMD64; each built with LIBSHA_REQUIRE_ALL_KERNELS=ON and checked by tools/check_wheel.py
# (tag, OS, CPU, macOS minimum, exports, dependencies, the loader's file name). The Windows AMD64
# wheel's own DLL then passes the C tests under wine. FreeBSD x86_64/aarch64 have no wheel (PyPI
# takes no FreeBSD tags): their libraries are built and checked the same way.
#   tools/cross_wheels.sh [WORKDIR]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(realpath -m "${1:-$(mktemp -d)}")
rm -rf "$work" && mkdir -p "$work"
start=$SECONDS
inputs=${LIBSHA_DIST_INPUTS:-$work/inputs}
"$repo/tools/dist_inputs.sh" "$inputs"
tools=$inputs/tools
sdist=$(ls "$inputs"/sdist/libsha-*.tar.gz)
# Named for the toolchain files: inside pip's isolated build, the python3 on PATH is not this venv's.
export LIBSHA_ZIG
LIBSHA_ZIG=$("$tools/bin/python" -c "import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), 'zig'))")
echo "cross_wheels: zig $("$LIBSHA_ZIG" version)"
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}

# host platform (as sysconfig spells it, which sets the wheel's tag) and toolchain file
targets=("macosx-11.0-arm64 zig-aarch64-macos" "macosx-11.0-x86_64 zig-x86_64-macos" "win-arm64 zig-aarch64-windows")
if command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
  targets+=("win-amd64 x86_64-w64-mingw32")
else
  echo "cross_wheels: no win_amd64 wheel: needs gcc-mingw-w64-x86-64 (.ci/run installs it)" >&2
fi
for target in "${targets[@]}"; do
  read -r host toolchain <<<"$target"
  t0=$SECONDS
  # py3-none: the accelerator needs the target's own Python (headers, and python3.lib on Windows),
  # which GitHub's runners have and this machine does not; the workflow builds the accelerated wheels there.
  _PYTHON_HOST_PLATFORM=$host "$tools/bin/pip" wheel -q --no-deps -w "$work/wheels" "$sdist" \
    -C cmake.define.CMAKE_TOOLCHAIN_FILE="$repo/cmake/toolchains/$toolchain.cmake" \
    -C cmake.define.LIBSHA_REQUIRE_ALL_KERNELS=ON -C wheel.py-api=py3 -C cmake.define.LIBSHA_NO_PYTHON_ACCEL=ON
  echo "cross_wheels: $host wheel built in $((SECONDS - t0)) s"
done
"$tools/bin/python" "$repo/tools/check_wheel.py" "$work"/wheels/*.whl

for target in "x86_64-freebsd freebsd_14_0_amd64" "aarch64-freebsd freebsd_14_0_arm64"; do
  read -r name tag <<<"$target"
  t0=$SECONDS
  cmake -S "$repo" -B "$work/$name" -DCMAKE_TOOLCHAIN_FILE="$repo/cmake/toolchains/zig-$name.cmake" \
    -DLIBSHA_REQUIRE_ALL_KERNELS=ON -DLIBSHA_WARNINGS_AS_ERRORS=ON >/dev/null
  cmake --build "$work/$name" >/dev/null
  echo "cross_wheels: $name library built in $((SECONDS - t0)) s"
  "$tools/bin/python" "$repo/tools/check_wheel.py" --library "$(realpath "$work/$name/libsha.so")" "$tag"
done

# The win_amd64 wheel's DLL, not a fresh build's, under the C tests: the tests are built with the
# same toolchain, then the wheel's libsha.dll replaces the one beside them. Configured as the suite's
# Windows tree (tests/packaging/test_cross.py), so ccache compiles the two once.
wine=$(command -v wine || command -v wine64 || ls /usr/lib/wine/wine64 2>/dev/null || true)
amd64_wheel=$(ls "$work"/wheels/*-win_amd64.whl 2>/dev/null || true)
if [ -z "$wine" ] || [ -z "$amd64_wheel" ]; then
  echo "cross_wheels: the win_amd64 wheel's DLL not run: needs wine64 and mingw-w64 (.ci/run installs them)" >&2
else
  cmake -S "$repo" -B "$work/win-tests" -DCMAKE_TOOLCHAIN_FILE="$repo/cmake/toolchains/x86_64-w64-mingw32.cmake" \
    -DLIBSHA_BUILD_TESTS=ON -DLIBSHA_WARNINGS_AS_ERRORS=ON >/dev/null
  cmake --build "$work/win-tests" --target test_libsha >/dev/null
  "$tools/bin/python" -m zipfile -e "$amd64_wheel" "$work/win-wheel"
  cp "$work/win-wheel/libsha/libsha.dll" "$work/win-tests/libsha.dll"
  echo "cross_wheels: the win_amd64 wheel's libsha.dll (sha256 $(sha256sum "$work/win-tests/libsha.dll" | cut -c1-16)…) under wine:"
  WINEPREFIX="$work/wine" WINEDEBUG=-all "$wine" "$work/win-tests/test_libsha.exe" "$repo/reference/vectors" \
    | tr -d "\r" | tee "$work/win-tests.log" | grep -E "detected: | passed, "
  grep -q "^[0-9]* passed, 0 failed$" "$work/win-tests.log" || { echo "cross_wheels: the wheel's DLL failed its C tests" >&2; exit 1; }
fi
echo "cross_wheels: done in $((SECONDS - start)) s"
