#!/usr/bin/env bash
# Installs IPFS's JavaScript importer (npm's ipfs-unixfs-importer, the versions
# shabench/ipfs_peer/package.json pins) under a prefix outside this checkout, with the script that
# asks it for CIDs: libsha.ipfs's peer in the tests and shabench. Needs Node.js 20 and npm.
#
#   tools/build_ipfs_js.sh PREFIX
#   SHABENCH_IPFS_JS=PREFIX pytest tests/trees/test_ipfs.py
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$1
here=$(cd "$(dirname "$0")/../shabench/ipfs_peer" && pwd)
command -v npm >/dev/null || { echo "$0: needs npm (Debian's nodejs and npm)" >&2; exit 2; }
mkdir -p "$prefix"
cp "$here/package.json" "$here/cid.mjs" "$here/add.mjs" "$prefix/"
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error >/dev/null
echo "ipfs-unixfs-importer $(node -p "require('$prefix/node_modules/ipfs-unixfs-importer/package.json').version") installed in $prefix"
echo "use it: SHABENCH_IPFS_JS=$prefix"
