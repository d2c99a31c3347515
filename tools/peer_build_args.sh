# Sourced by the peer build scripts (tools/build_isal_crypto.sh, tools/build_hashtree.sh): their two
# arguments, SOURCE_DIR and PREFIX, as absolute paths in $source_dir and $prefix, the prefix made and
# kept outside this checkout (nothing of a peer is vendored or built into libsha).
if [ $# -ne 2 ]; then
  echo "usage: $0 SOURCE_DIR PREFIX" >&2
  exit 2
fi
source_dir=$(cd "$1" && pwd)
prefix=$(realpath -m "$2")
checkout=$(cd "$(dirname "$0")/.." && pwd)
case "$prefix/" in
  "$checkout"/*) echo "$0: PREFIX must be outside the checkout ($checkout)" >&2; exit 2 ;;
esac
mkdir -p "$prefix"
