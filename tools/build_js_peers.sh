#!/usr/bin/env bash
# Installs the JavaScript peers (the versions shabench/js_peers/package.json pins: IPFS's importer,
# ipfs-unixfs-importer; Filecoin's piece commitments, @web3-storage/data-segment) under a prefix
# outside this checkout, with our scripts that ask them (shabench/js_peers/*.mjs): libsha.ipfs's and
# libsha.filecoin's peers in the tests and shabench. Needs Node.js 20 and npm.
#
#   tools/build_js_peers.sh PREFIX
#   SHABENCH_JS_PEERS=PREFIX pytest tests/trees/test_ipfs.py tests/trees/test_filecoin.py
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$1
here=$(cd "$(dirname "$0")/../shabench/js_peers" && pwd)
command -v npm >/dev/null || { echo "$0: needs npm (Debian's nodejs and npm)" >&2; exit 2; }
mkdir -p "$prefix"
cp "$here/package.json" "$here"/*.mjs "$prefix/"
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error >/dev/null
for package in ipfs-unixfs-importer @web3-storage/data-segment; do
  echo "$package $(node -p "require('$prefix/node_modules/$package/package.json').version") installed in $prefix"
done
echo "use them: SHABENCH_JS_PEERS=$prefix"
