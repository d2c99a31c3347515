#!/usr/bin/env bash
# Provides a free-threaded CPython (python3.13t, built with --disable-gil) in DIR and prints the path
# of its interpreter on the last line. DIR defaults to ~/.cache/libsha/python3.13t: outside any
# checkout, so that CI's fresh clones reuse an interpreter an earlier run built on the same machine;
# a finished build (DIR/bin/python3.13t that runs without the GIL) is reused, anything else is
# rebuilt. Debian 12 packages no 3.13: the source is Debian 13's python3.13 source package, fetched
# by apt-get with a private source list and state directory (the system's apt setup is left alone).
# About 8 minutes on two cores. With GIL=1 the same source is built with the GIL (DIR defaults to
# ~/.cache/libsha/python3.13): the like-for-like interpreter for timing the free-threaded one.
# Needs apt-get, a C compiler, make, and the -dev packages of libffi (ctypes), OpenSSL (pip),
# zlib, bz2, lzma and sqlite3.
set -euo pipefail
suffix=t
configure_gil=--disable-gil
if [ "${GIL:-0}" = 1 ]; then
  suffix=""
  configure_gil=""
fi
dir=$(realpath -m "${1:-${XDG_CACHE_HOME:-$HOME/.cache}/libsha/python3.13$suffix}")
python="$dir/bin/python3.13$suffix"
want_gil=$([ -n "$suffix" ] && echo False || echo True)
if [ -x "$python" ] && [ "$("$python" -c 'import sys, ctypes, ssl, zlib; print(sys._is_gil_enabled())' 2>/dev/null)" = "$want_gil" ]; then
  echo "$python"
  exit 0
fi

work="$dir.build"
rm -rf "$work" "$dir"
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial"
echo "deb-src http://deb.debian.org/debian trixie main" > "$work/apt/sources.list"
apt=(-o "Dir::Etc::SourceList=$work/apt/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
     -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache" -o Debug::NoLocking=1
     -o APT::Sandbox::User=root)
apt-get "${apt[@]}" update -qq
(cd "$work" && apt-get "${apt[@]}" source --download-only -qq python3.13 >/dev/null)
tar -xf "$work"/python3.13_*.orig.tar.xz -C "$work"
src=$(find "$work" -maxdepth 1 -type d -name 'Python-3.13*' | head -n 1)

# No PGO or LTO: a plain -O2 build, the same for the GIL and the free-threaded interpreter.
(cd "$src" && ./configure -q --prefix="$dir" $configure_gil --with-ensurepip=install > "$work/configure.log" 2>&1 \
  && make -s -j"$(nproc)" > "$work/make.log" 2>&1 && make -s install > "$work/install.log" 2>&1) || {
  tail -n 40 "$work"/*.log >&2
  exit 1
}
rm -rf "$work"
"$python" -c 'import sys, ctypes, ssl, zlib; print(sys.version, "GIL enabled:", sys._is_gil_enabled())' >&2
echo "$python"
