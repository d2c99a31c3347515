#!/usr/bin/env bash
# Bounded differential fuzzing (run by CI after tools/sanitize.sh), then the coverage it reached:
#   1. libFuzzer, two harnesses at a time: tests/fuzz/fuzz_sha256.c: the C API against OpenSSL's libcrypto,
#      FUZZ_SECONDS (60), then fuzz_kdf.c: PBKDF2 and HKDF against OpenSSL's, FUZZ_KDF_SECONDS (20); beside
#      them fuzz_streams.c: many streams at once against OpenSSL's streams, FUZZ_STREAMS_SECONDS (30),
#      fuzz_state.c: saved states, FUZZ_STATE_SECONDS (20), and fuzz_trees.c: the Merkle trees (fs-verity's
#      and dm-verity's too) against plain ones over OpenSSL, FUZZ_TREES_SECONDS (30);
#   2. atheris, tests/fuzz/fuzz_python.py: the Python API against hashlib, ATHERIS_SECONDS (45),
#      on a libsha built with ASan+UBSan+fuzzer-no-link, so C edges guide it and ASan checks it;
#   3. source coverage (llvm-cov) of libsha's C files when each harness replays its grown corpus.
# Each harness starts from a copy of its committed seed corpus (tests/fuzz/corpus*).
#   PYTHON=<python with libsha and atheris, e.g. the test venv> tools/fuzz.sh [WORKDIR]
set -euo pipefail
# Every build below on every core.
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(realpath -m "${1:-$(mktemp -d)}")
python=${PYTHON:-python3}
mkdir -p "$work"

clang=$(command -v clang-14 || command -v clang || true)
if [ -z "$clang" ] || [ ! -f /usr/include/openssl/evp.h ]; then
  echo "clang or OpenSSL headers are missing (clang-14 libclang-rt-14-dev libssl-dev): fuzzing skipped"
  exit 0
fi
version=$("$clang" -dumpversion | cut -d. -f1)
llvm_tool() { command -v "$1-$version" || command -v "$1"; }

build() {  # build DIR CFLAGS [LDFLAGS]: one clang build for both fuzzers, in DIR.build: the libFuzzer
  # harnesses beside the library, and the Python package (that library and its accelerator) installed into DIR.
  # With the tests' portable 16-lane row, so the harness's implementation byte also reaches the
  # lane-generic body and the scheduler's 16-lane paths on CPUs without AVX-512.
  CC="$clang" "$python" -m pip install -q --no-deps --target "$1" "$repo" -C build-dir="$1.build" -C install.strip=false \
    -C cmake.build-type=RelWithDebInfo -C cmake.define.LIBSHA_BUILD_FUZZERS=ON -C cmake.define.LIBSHA_TEST_PORTABLE_LANES=ON \
    -C cmake.define.CMAKE_C_FLAGS="$2" -C cmake.define.CMAKE_SHARED_LINKER_FLAGS="${3:-}" \
    -C cmake.define.CMAKE_MODULE_LINKER_FLAGS="${3:-}" -C cmake.define.CMAKE_EXE_LINKER_FLAGS="${3:-}" >/dev/null
}

fresh_corpus() {  # fresh_corpus SEEDS DIR: fuzzing adds files, never to the checkout
  rm -rf "$2" && cp -r "$1" "$2"
}

# libFuzzer's last status line ("#N DONE cov: E ft: F ...") and its stats, nothing else.
summary() { grep -E "DONE|stat::number_of_executed_units|stat::average_exec_per_sec|ERROR|SUMMARY|Traceback|Error"; }

# The five libFuzzer harnesses, each for its own seconds, two at a time (one core each), in two lanes
# of about equal length; each harness's summary printed in this order once both lanes are done.
# fuzzer-no-link on the accelerator too (the library has it from CMake): its C methods guide atheris.
build "$work/fuzz" "-fsanitize=address,undefined -fno-sanitize-recover=all -fsanitize=fuzzer-no-link"
harness() {  # harness NAME SECONDS SEEDS CORPUS: one harness's run, its status and summary to $work/NAME.*
  fresh_corpus "$repo/tests/fuzz/$3" "$work/$4"
  local status=0
  "$work/fuzz.build/fuzz_$1" -max_total_time="$2" -timeout=10 -print_final_stats=1 "$work/$4" > "$work/$1.out" 2>&1 || status=$?
  echo "$status" > "$work/$1.status"
}
rm -f "$work"/*.status
(harness sha256 "${FUZZ_SECONDS:-60}" corpus corpus-c; harness kdf "${FUZZ_KDF_SECONDS:-20}" corpus_kdf corpus-kdf) &
lane=$!
harness streams "${FUZZ_STREAMS_SECONDS:-30}" corpus_streams corpus-streams
harness state "${FUZZ_STATE_SECONDS:-20}" corpus_state corpus-state
harness trees "${FUZZ_TREES_SECONDS:-30}" corpus_trees corpus-trees
wait "$lane"
failed=0
while read -r name title; do
  echo "== libFuzzer: $title"
  summary < "$work/$name.out" || true
  [ "$(cat "$work/$name.status")" = 0 ] || { echo "fuzz_$name failed:"; tail -n 60 "$work/$name.out"; failed=1; }
done <<EOF_HARNESSES
sha256 C API against OpenSSL (${FUZZ_SECONDS:-60} s, ASan+UBSan)
streams many streams at once against OpenSSL's streams (${FUZZ_STREAMS_SECONDS:-30} s, ASan+UBSan)
state saved states, as they come and valid ones damaged (${FUZZ_STATE_SECONDS:-20} s, ASan+UBSan)
kdf PBKDF2 and HKDF against OpenSSL's (${FUZZ_KDF_SECONDS:-20} s, ASan+UBSan)
trees the Merkle trees against plain ones over OpenSSL (${FUZZ_TREES_SECONDS:-30} s, ASan+UBSan)
EOF_HARNESSES
[ "$failed" = 0 ]

echo "== atheris: Python API against hashlib (${ATHERIS_SECONDS:-45} s, ASan+UBSan library)"
if ! (cd "$work" && "$python" -c "import atheris, libsha") 2>/dev/null; then  # not the checkout's libsha/
  echo "atheris is not installed for $python (the test extra brings it on x86-64 Linux, CPython 3.11-3.13): skipped"
else
  # libsha's sancov hooks must reach atheris's libFuzzer, and ASan must be loaded first:
  # one preloaded object carrying both (clang's ASan+UBSan runtime, minus its
  # executable-only preinit part, and libFuzzer without its main()).
  runtime=$("$clang" -print-runtime-dir)
  rm -rf "$work/asan-objects" && mkdir "$work/asan-objects"
  cp "$runtime/libclang_rt.asan-x86_64.a" "$work/asan-objects/asan.a"
  ar d "$work/asan-objects/asan.a" asan_preinit.cpp.o
  "$clang" -shared -o "$work/asan_with_fuzzer.so" -Wl,--whole-archive "$work/asan-objects/asan.a" \
    "$runtime/libclang_rt.fuzzer_no_main-x86_64.a" -Wl,--no-whole-archive -lpthread -ldl -lm -lrt -lstdc++
  fresh_corpus "$repo/tests/fuzz/corpus_python" "$work/corpus-python"
  # The package of the harnesses' build, so the accelerator's C methods guide the fuzzer and ASan checks them.
  # From $work: in the checkout, its libsha/ would shadow the installed package.
  (cd "$work" && LD_PRELOAD="$work/asan_with_fuzzer.so" PYTHONPATH="$work/fuzz" \
    ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=16:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1 \
    "$python" "$repo/tests/fuzz/fuzz_python.py" -max_total_time="${ATHERIS_SECONDS:-45}" -timeout=10 \
    -print_final_stats=1 "$work/corpus-python" 2>&1 | summary; exit "${PIPESTATUS[0]}")
fi

echo "== Coverage of libsha's C sources when each harness replays its corpus"
build "$work/coverage" "-fprofile-instr-generate -fcoverage-mapping" "-fprofile-instr-generate"
profdata=$(llvm_tool llvm-profdata) cov=$(llvm_tool llvm-cov)
report() {  # report NAME [OBJECTS...]: per-file region and line coverage from $work/NAME-*.profraw
  "$profdata" merge -o "$work/$1.profdata" "$work/$1"-*.profraw
  local name=$1
  shift
  [ $# -gt 0 ] || set -- "$work/coverage.build/libsha.so"
  "$cov" report "$@" -instr-profile="$work/$name.profdata" \
    | awk -v repo="$repo/" 'BEGIN { printf "  %-28s %8s %8s\n", "file (with code)", "regions", "lines" }
        /^(TOTAL|[^ ]*\.[ch] )/ && $2 != "0" { sub(repo, ""); printf "  %-28s %8s %8s\n", $1, $4, $10 }'
}
rm -f "$work"/c-*.profraw "$work"/python-*.profraw
LLVM_PROFILE_FILE="$work/c-%p.profraw" "$work/coverage.build/fuzz_sha256" -runs=0 "$work/corpus-c" >/dev/null 2>&1
LLVM_PROFILE_FILE="$work/c-%p.profraw" "$work/coverage.build/fuzz_streams" -runs=0 "$work/corpus-streams" >/dev/null 2>&1
LLVM_PROFILE_FILE="$work/c-%p.profraw" "$work/coverage.build/fuzz_state" -runs=0 "$work/corpus-state" >/dev/null 2>&1
LLVM_PROFILE_FILE="$work/c-%p.profraw" "$work/coverage.build/fuzz_kdf" -runs=0 "$work/corpus-kdf" >/dev/null 2>&1
LLVM_PROFILE_FILE="$work/c-%p.profraw" "$work/coverage.build/fuzz_trees" -runs=0 "$work/corpus-trees" >/dev/null 2>&1
echo "libFuzzer corpora ($(ls "$work/corpus-c" | wc -l) + $(ls "$work/corpus-streams" | wc -l) streams + $(ls "$work/corpus-state" | wc -l) states + $(ls "$work/corpus-kdf" | wc -l) kdf + $(ls "$work/corpus-trees" | wc -l) trees inputs):"
report c
if [ -d "$work/corpus-python" ]; then
  # The preload again: the harness's own libFuzzer hooks need it.
  (cd "$work" && LLVM_PROFILE_FILE="$work/python-%p.profraw" PYTHONPATH="$work/coverage" \
    LD_PRELOAD="$work/asan_with_fuzzer.so" ASAN_OPTIONS=detect_leaks=0 \
    "$python" "$repo/tests/fuzz/fuzz_python.py" -runs=0 "$work/corpus-python" >/dev/null 2>&1)
  echo "atheris corpus ($(ls "$work/corpus-python" | wc -l) inputs), the package's library and accelerator:"
  report python "$work/coverage/libsha/libsha.so" -object "$(ls "$work"/coverage/libsha/_accel*.so | head -n 1)"
fi
