#!/usr/bin/env bash
# Builds isa-l_crypto (Intel's multi-buffer hashing library, not packaged for Debian) from a source
# directory you name, and installs it under a prefix outside this checkout, for shabench's batch
# peer rows: nothing of it is vendored or linked into libsha.
#
#   tools/build_isal_crypto.sh SOURCE_DIR PREFIX
#   SHABENCH_ISAL_CRYPTO=PREFIX shabench --group peers
#
# SOURCE_DIR is a checkout of https://github.com/intel/isa-l_crypto; its assembly needs nasm
# (apt-get install nasm). PREFIX gets include/isa-l_crypto/ and lib/libisal_crypto.so.
set -euo pipefail
. "$(dirname "$0")/peer_build_args.sh"
[ -f "$source_dir/sha256_mb/sha256_mb_x8_avx2.asm" ] \
  || { echo "$0: $source_dir is not an isa-l_crypto source tree (no sha256_mb/)" >&2; exit 2; }
command -v nasm >/dev/null || { echo "$0: needs nasm (apt-get install nasm)" >&2; exit 2; }

build="$prefix/build"
cmake -S "$source_dir" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_TESTS=OFF -DBUILD_PERF=OFF >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
cmake --install "$build" >/dev/null
echo "isa-l_crypto $(git -C "$source_dir" describe --always --tags 2>/dev/null || echo '(no git)') installed in $prefix"
echo "use it: SHABENCH_ISAL_CRYPTO=$prefix shabench --group peers"
