#!/usr/bin/env bash
# The Linux wheels for the other CPUs, built here by the cross route and tested under qemu-user with
# Debian's CPython for each (tools/debian_python.sh prepares it in build/<debian arch>-python; .ci/run
# does): aarch64 (the ARM rows), and ppc64le, s390x and riscv64 (the standard kernel alone). Each is the
# abi3 wheel (a version-specific module cross-built here would carry this host's extension suffix; the
# workflow builds every version's own wheel under emulation), from the sdist, with Debian's cross gcc,
# repaired by auditwheel (its manylinux tag) and checked by tools/check_wheel.py. s390x, the one
# big-endian CPU, then checks libsha with the oracle's default suites.
#   tools/foreign_wheels.sh [WORKDIR [ARCH...]]      ARCH: aarch64 ppc64le s390x riscv64 (default: all)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(realpath -m "${1:-$(mktemp -d)}")
shift || true
if [ $# -gt 0 ]; then archs=("$@"); else archs=(aarch64 ppc64le s390x riscv64); fi
rm -rf "$work" && mkdir -p "$work"
start=$SECONDS
inputs=${LIBSHA_DIST_INPUTS:-$work/inputs}
"$repo/tools/dist_inputs.sh" "$inputs"
tools=$inputs/tools
sdist=$(ls "$inputs"/sdist/libsha-*.tar.gz)
export PATH="$tools/bin:$PATH"  # auditwheel runs patchelf by name

# The tests an installed wheel is checked with (tools/check_dist.sh's), by marker.
WHEEL_TESTS="not build and not emulated and not external and not slow and not tooling"
# Every entry point through both binding paths (the `core` tests of these files), on s390x, the one
# big-endian CPU: the layouts Python packs for C, the states, the trees' formats and Arrow's views are
# where byte order would show. Not the decision tables, the choice of rows (test_dispatch: `standard` alone
# here; aarch64's run reaches the detection through its wheel), the buffers' lifetimes, Python's own
# argument handling and PBKDF2's chains (the same on every CPU), nor BEP 52's sweep of tree sizes up to
# 16 MiB (2.5 GB hashed, 95 s under qemu: portable C, swept natively).
ENTRY_POINT_TESTS="tests/one_message/test_nist.py tests/one_message/test_hmac.py tests/one_message/test_streaming.py
  tests/one_message/test_states.py tests/many/test_many.py tests/many/test_sha256d64.py tests/many/test_merkle.py
  tests/kdf/test_hkdf.py tests/trees tests/library/test_native_api.py tests/library/test_loader.py"
# On aarch64, the files whose `core` tests reach the ARM rows' kernels (one message, the lanes, SHA256D64
# and the Merkle root) and the ARM detection through the wheel. Each kernel's sweep under every entry
# point is the C tests' under qemu-aarch64 (tests/packaging/test_cross.py), and the rest of the list
# above is portable code, run through Python on s390x.
ARM_TESTS="tests/one_message/test_nist.py tests/many/test_many.py tests/many/test_sha256d64.py tests/many/test_merkle.py
  tests/rows/test_dispatch.py tests/library/test_native_api.py tests/library/test_loader.py"
# Little-endian CPUs with the standard kernel alone: the C under the binding is x86's `standard`, swept
# natively and by the C tests under qemu; what is this CPU's own is the wheel, the loader, libffi's
# calls and the accelerator built for it, which the `binding` tests of these files reach on both paths.
LE_TESTS="tests/one_message/test_nist.py tests/one_message/test_binding_paths.py tests/one_message/test_hashlib_parity.py
  tests/library/test_native_api.py tests/library/test_loader.py tests/many/test_many.py tests/files"

declare -A triple=([aarch64]=aarch64-linux-gnu [ppc64le]=powerpc64le-linux-gnu [s390x]=s390x-linux-gnu
                   [riscv64]=riscv64-linux-gnu)
declare -A debian=([aarch64]=arm64 [ppc64le]=ppc64el [s390x]=s390x [riscv64]=riscv64)
one_cpu() {  # one_cpu ARCH: its wheel built, checked and tested
  local arch=$1 t0=$SECONDS python wheel pyver tests marker extra library oracle
  python=${LIBSHA_FOREIGN_PYTHON_DIR:-$repo/build}/${debian[$arch]}-python/python3
  if ! command -v "${triple[$arch]}-gcc" >/dev/null 2>&1 || [ ! -x "$python" ]; then
    echo "foreign_wheels: no $arch wheel: needs gcc-${triple[$arch]} and tools/debian_python.sh ${debian[$arch]}"
    return 0
  fi
  LIBSHA_ABI3=1 _PYTHON_HOST_PLATFORM=linux-$arch pip wheel -q --no-deps -w "$work/wheel-$arch" "$sdist" \
    -C cmake.define.CMAKE_TOOLCHAIN_FILE="$repo/cmake/toolchains/${triple[$arch]}.cmake" \
    -C cmake.define.LIBSHA_REQUIRE_ALL_KERNELS=ON
  auditwheel repair -w "$work/repaired-$arch" "$work"/wheel-$arch/*.whl >/dev/null
  wheel=$(ls "$work"/repaired-$arch/*.whl)
  echo "foreign_wheels: $arch wheel: $(basename "$wheel") (built in $((SECONDS - t0)) s)"
  python "$repo/tools/check_wheel.py" "$wheel"
  # Installed for the emulated interpreter: its version, and any manylinux tag up to Debian's glibc.
  pyver=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  # NumPy on aarch64 alone: PyPI has no wheels of it for the others.
  case $arch in
    aarch64) tests=$ARM_TESTS marker="core and ($WHEEL_TESTS)" extra=numpy ;;
    s390x) tests=$ENTRY_POINT_TESTS marker="core and ($WHEEL_TESTS)" extra= ;;
    *) tests=$LE_TESTS marker="binding and ($WHEEL_TESTS)" extra= ;;
  esac
  pip install -q --target "$work/site-$arch" --only-binary=:all: --python-version "$pyver" --implementation cp \
    --abi "cp${pyver/./}" --abi abi3 --platform "$(basename "$wheel" .whl | sed 's/.*-//; s/\..*//')" \
    --platform "linux_$arch" "$wheel" pytest hypothesis $extra
  # -P: the checkout's libsha/ must not shadow the wheel.
  (cd "$repo" && LIBSHA_TEST_ROWS=active PYTHONPATH="$work/site-$arch" "$python" -P -m pytest -q -p no:cacheprovider \
    -m "$marker" --deselect tests/trees/test_bep52.py::test_block_counts_and_piece_levels_against_the_reference $tests)
  if [ "$arch" = s390x ]; then
    # The oracle's default suites on libsha's one-shot (NIST's CAVP, every padding border, alignment, the
    # guard page, random cases) and its blobs on SHA256D64, the expected digests computed by the reference
    # in big-endian Python; --quick: 10 of the 100 Monte Carlo checkpoints (all 100 took 72 s under qemu,
    # a chain of 100,000 calls that shows byte order no better than its first 10,000; they passed here when
    # s390x was added). Not the stream's splits suite (2.5 minutes of CPU under qemu): every split of
    # 0..300 bytes is the C tests' sweep under qemu-s390x.
    library=$work/site-$arch/libsha/libsha.so
    oracle=(env PYTHONPATH="$work/site-$arch" "$python" -P -m libsha.oracle --library "$library" --quick --seconds 3)
    "${oracle[@]}" --symbol libsha_sha256
    "${oracle[@]}" --d64 libsha_sha256d64
  fi
  echo "foreign_wheels: $arch done in $((SECONDS - t0)) s"
}

# Two CPUs at a time (qemu-user runs one thread each), s390x's long run first, each asked for once; each
# one's log printed whole, in the order they began, and any failure fails the script.
order=()
for arch in s390x "${archs[@]}"; do
  [[ " ${archs[*]} " == *" $arch "* && " ${order[*]} " != *" $arch "* ]] && order+=("$arch")
done
# Each run writes how it ended to a file: `wait PID` for a run that ended long before can fail with 127
# once the system has handed its PID to another process (pid_max 32768 here, wrapped within one CI run;
# aarch64's 15-minute run under qemu on Zen 3 was reported failed so after "done").
for arch in "${order[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 2; done
  rm -f "$work/$arch.status"
  ( (set -e; one_cpu "$arch"); echo $? > "$work/$arch.status" ) > "$work/$arch.log" 2>&1 &
done
wait
failed=()
for arch in "${order[@]}"; do
  [ "$(cat "$work/$arch.status" 2>/dev/null)" = 0 ] || failed+=("$arch")
  cat "$work/$arch.log"
done
echo "foreign_wheels: done in $((SECONDS - start)) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "foreign_wheels: failed: ${failed[*]}" >&2
  exit 1
fi
