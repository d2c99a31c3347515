#!/usr/bin/env bash
# libsha under the sanitizers (run by CI after the test suite):
#   1. ASan + UBSan (-fno-sanitize-recover): the C tests, then the pytest suite against the package
#      built the same way, its library and its accelerator (the sanitizer runtimes preloaded into Python);
#   2. TSan: the C thread-stress test (hashing while others switch implementations), and
#      sha256_many(threads=) from Python against that library (the TSan runtime preloaded);
#   3. valgrind memcheck: the C tests, for the implementations valgrind can execute.
# Fuzzing is tools/fuzz.sh.
#   PYTHON=<python with the test extras> tools/sanitize.sh [WORKDIR]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(realpath -m "${1:-$(mktemp -d)}")
python=${PYTHON:-python3}
mkdir -p "$work"
# Every build below on every core.
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}

build() {  # build DIR FLAGS TARGET...: the library and the C tests a step runs, no others
  local dir=$1 flags=$2
  shift 2
  cmake -S "$repo" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIBSHA_BUILD_TESTS=ON -DLIBSHA_WARNINGS_AS_ERRORS=ON \
    -DCMAKE_C_FLAGS="$flags" >/dev/null
  cmake --build "$dir" --target sha "$@" >/dev/null
}

echo "== ASan + UBSan"
# (The AVX-512 rows run here where the CPU has them; tools/fuzz.sh's ASan+UBSan build carries the
# tests' portable 16-lane row for the CPUs that do not.)
# One ASan+UBSan build (pip's, Release, with -g for the reports' lines) serves both runs: the package,
# its library and its accelerator (libsha._accel), installed apart to be put first on the path, so the
# binding's C methods are checked too; and the C tests, built in the same folder beside that library.
sanitized="-g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
"$python" -m pip install -q --no-deps --target "$work/asan-site" "$repo" -C build-dir="$work/asan" \
  -C install.strip=false -C cmake.define.CMAKE_C_FLAGS="$sanitized" \
  -C cmake.define.LIBSHA_WARNINGS_AS_ERRORS=ON -C cmake.define.LIBSHA_BUILD_TESTS=ON
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir "$work/asan" --output-on-failure -j "$CMAKE_BUILD_PARALLEL_LEVEL" -E '^guard_pages$' | tail -3
# The guard pages at the offsets that put the guarded message in each lane position: what ASan+UBSan
# add (the library's own stack and globals, alignment) is reached there; the plain build (ctest in the
# suite) sweeps every offset against the guards.
if ! "$work/asan/test_guard_pages" --lane-positions > "$work/asan-guard-pages.log" 2>&1; then
  cat "$work/asan-guard-pages.log"; exit 1
fi
echo "guard pages: $(tail -n 1 "$work/asan-guard-pages.log")"
# Python itself is not instrumented: preload the runtimes; CPython's allocations are not leaks to report.
# From $work: in the checkout, its libsha/ would shadow the installed package.
cd "$work"
LD_PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)" PYTHONPATH="$work/asan-site" \
  "$python" -c "import libsha; print('== pytest on', libsha.__file__, 'binding:', libsha.dispatch.binding())"
# The tests that reach C through the binding (`core` and `binding`: every entry point, the accelerator's
# C methods), on the accelerator's path alone (LIBSHA_TEST_PATHS): its C methods call every entry point
# the ctypes path calls, and the ctypes path's own Python runs in the suite before this. The tools, the
# examples and the packaging tests call the same entry points again through the same binding.
LD_PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)" PYTHONPATH="$work/asan-site" \
  LIBSHA_TEST_ROWS=active LIBSHA_TEST_PATHS=accelerated "$python" -m pytest "$repo/tests" -q -p no:cacheprovider -n 2 --dist worksteal \
  -m "(core or binding) and not build and not emulated and not external and not slow and not tooling" | tail -2
unset ASAN_OPTIONS UBSAN_OPTIONS

echo "== TSan"
build "$work/tsan" "-fsanitize=thread" test_threads
TSAN_OPTIONS=halt_on_error=1 "$work/tsan/test_threads" 1000
# Python is not instrumented; its locks are seen through the runtime's interceptors, libsha's accesses directly.
(cd "$work" && TSAN_OPTIONS=halt_on_error=1 LD_PRELOAD="$(gcc -print-file-name=libtsan.so)" \
  LIBSHA_LIBRARY="$(realpath "$work/tsan/libsha.so")" "$python" "$repo/tests/library/threads_check.py")

echo "== valgrind memcheck"
if command -v valgrind >/dev/null 2>&1; then
  # The pure decision tests and the saved states too; not the thread stress (valgrind serialises threads: minutes).
  others="test_kdf test_x86_decide test_arm_sysctl test_states"
  build "$work/plain" "" test_libsha $others
  # test_libsha (the longest) on one core, the others in turn on the other; each one's last lines
  # printed in this order, and any failure fails the step.
  (status=0; valgrind --error-exitcode=1 --quiet "$work/plain/test_libsha" "$repo/reference/vectors" \
     > "$work/valgrind-libsha.log" 2>&1 || status=$?; echo "$status" > "$work/valgrind-libsha.status") &
  failed=0
  rm -f "$work/valgrind-others.log" && touch "$work/valgrind-others.log"
  for t in $others; do
    valgrind --error-exitcode=1 --quiet "$work/plain/$t" "$repo/reference/vectors" > "$work/valgrind-$t.log" 2>&1 || failed=1
    tail -1 "$work/valgrind-$t.log" >> "$work/valgrind-others.log"
  done
  wait
  tail -6 "$work/valgrind-libsha.log"
  cat "$work/valgrind-others.log"
  [ "$(cat "$work/valgrind-libsha.status")" = 0 ] && [ "$failed" = 0 ]
else
  echo "valgrind is not installed: skipped"
fi
