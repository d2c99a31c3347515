#!/usr/bin/env bash
# Builds OffchainLabs/hashtree (the SSZ hashing library of Ethereum's consensus clients: 64-byte
# blocks in, their digests out) from a source directory you name, and installs it under a prefix
# outside this checkout, for shabench's batch peer rows: nothing of it is vendored or linked into
# libsha.
#
#   tools/build_hashtree.sh SOURCE_DIR PREFIX
#   SHABENCH_HASHTREE=PREFIX shabench --group peers
#
# SOURCE_DIR is a checkout of https://github.com/OffchainLabs/hashtree (its kernels are GNU
# assembly: gcc or clang builds them). PREFIX gets include/hashtree.h and lib/libhashtree.so, a
# shared library made of its static one, every kernel exported by name.
set -euo pipefail
. "$(dirname "$0")/peer_build_args.sh"
[ -f "$source_dir/src/hashtree.h" ] && [ -f "$source_dir/src/Makefile" ] \
  || { echo "$0: $source_dir is not a hashtree source tree (no src/hashtree.h)" >&2; exit 2; }
cc=${CC:-cc}

build="$prefix/build"
rm -rf "$build"
cp -r "$source_dir/src" "$build"  # its Makefile writes beside itself: build in a copy
make -C "$build" OUT_DIR="$build/out" CC="$cc" "$build/out/lib/libhashtree.a" >/dev/null
mkdir -p "$prefix/include" "$prefix/lib"
cp "$source_dir/src/hashtree.h" "$prefix/include/"
"$cc" -shared -o "$prefix/lib/libhashtree.so" \
  -Wl,--whole-archive "$build/out/lib/libhashtree.a" -Wl,--no-whole-archive
version=$(sed -n 's/^VERSION := *//p' "$source_dir/src/Makefile")
echo "$version" > "$prefix/VERSION"
echo "hashtree ${version:-?} ($(git -C "$source_dir" describe --always --tags 2>/dev/null || echo 'no git')) installed in $prefix"
echo "use it: SHABENCH_HASHTREE=$prefix shabench --group peers"
