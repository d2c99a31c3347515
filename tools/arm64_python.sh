#!/usr/bin/env bash
# Prepares Debian's arm64 CPython, to run under qemu-aarch64, in DIR (default build/arm64-python):
#   DIR/root/      the unpacked arm64 packages (dpkg's own architecture list is left alone:
#                  apt runs with a private state directory and only downloads)
#   DIR/python3    a wrapper that runs it; also what sys.executable names, so the
#                  tests' subprocesses work without binfmt_misc
# Needs apt-get, dpkg-deb and qemu-aarch64. Used by .ci/run and tests/packaging/test_cross.py.
set -euo pipefail
dir=$(realpath -m "${1:-build/arm64-python}")
packages="python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libc6 libgcc-s1 libexpat1
  zlib1g libffi8 libssl3 libbz2-1.0 liblzma5 libsqlite3-0 libuuid1 libcrypt1 libncursesw6 libtinfo6 libreadline8"

mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs"
apt=(-o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache" -o APT::Architecture=arm64
     -o APT::Architectures::=arm64 -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
apt-get "${apt[@]}" update -qq
(cd "$dir/debs" && apt-get "${apt[@]}" download $packages >/dev/null)

rm -rf "$dir/root"
mkdir -p "$dir/root"
for deb in "$dir"/debs/*.deb; do
  dpkg-deb -x "$deb" "$dir/root"
done
cat > "$dir/python3" <<WRAPPER
#!/bin/sh
exec qemu-aarch64 -L "$dir/root" -0 "\$0" "$dir/root/usr/bin/python3.11" "\$@"
WRAPPER
chmod +x "$dir/python3"
"$dir/python3" -c 'import platform, sys; print("arm64 python", sys.version.split()[0], platform.machine())'
