#!/usr/bin/env bash
# Prepares Debian's CPython for another CPU, to run under qemu-user, in DIR (default build/ARCH-python):
#   tools/debian_python.sh ARCH [DIR]     ARCH: arm64, ppc64el or s390x (Debian 12, CPython 3.11),
#                                         riscv64 (Debian 13, CPython 3.13: Debian 12 has no riscv64)
#   DIR/root/      the unpacked packages (dpkg's own architecture list is left alone: apt runs with a
#                  private state directory and source list, and only downloads)
#   DIR/python3    a wrapper that runs it; also what sys.executable names, so the tests' subprocesses
#                  work without binfmt_misc
# Needs apt-get, dpkg-deb and qemu-user. Used by .ci/run, tools/check_dist.sh and tools/foreign_wheels.sh.
set -euo pipefail
arch=${1:?usage: tools/debian_python.sh ARCH [DIR]}
dir=$(realpath -m "${2:-build/$arch-python}")
case $arch in
  arm64) qemu=qemu-aarch64 ;;
  ppc64el) qemu=qemu-ppc64le ;;
  s390x) qemu=qemu-s390x ;;
  riscv64) qemu=qemu-riscv64 ;;
  *) echo "debian_python: no such architecture here: $arch (arm64, ppc64el, s390x, riscv64)" >&2; exit 2 ;;
esac
# The packages of CPython and what it loads, each release by its own names.
if [ "$arch" = riscv64 ]; then
  suite=trixie py=3.13
  libs="libssl3t64 libreadline8t64 libncursesw6 libtinfo6 libzstd1"
else
  suite=bookworm py=3.11
  libs="libssl3 libreadline8 libncursesw6 libtinfo6"
fi
packages="python$py-minimal libpython$py-minimal libpython$py-stdlib libc6 libgcc-s1 libexpat1 zlib1g libffi8
  libbz2-1.0 liblzma5 libsqlite3-0 libuuid1 libcrypt1 $libs"

mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs"
echo "deb [arch=$arch] http://deb.debian.org/debian $suite main" > "$dir/apt/sources.list"
apt=(-o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache" -o "Dir::Etc::SourceList=$dir/apt/sources.list"
     -o Dir::Etc::SourceParts=/nonexistent -o "APT::Architecture=$arch" -o "APT::Architectures::=$arch"
     -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
apt-get "${apt[@]}" update -qq
rm -f "$dir"/debs/*.deb
(cd "$dir/debs" && apt-get "${apt[@]}" download $packages >/dev/null)

rm -rf "$dir/root"
mkdir -p "$dir/root"
for deb in "$dir"/debs/*.deb; do
  dpkg-deb -x "$deb" "$dir/root"
done
# Debian 13's packages put the libraries in /usr/lib alone (merged /usr, whose links come from
# base-files), and links that name an absolute path would leave the tree: qemu -L looks inside it.
for top in lib lib64 bin; do
  [ -e "$dir/root/$top" ] || [ ! -d "$dir/root/usr/$top" ] || ln -s "usr/$top" "$dir/root/$top"
done
find "$dir/root" -type l -lname '/*' | while read -r link; do
  ln -sfn "$dir/root$(readlink "$link")" "$link"
done
# -0: argv[0] is the wrapper, so sys.executable runs the emulated interpreter again.
cat > "$dir/python3" <<WRAPPER
#!/bin/sh
exec $qemu -L "$dir/root" -0 "\$0" "$dir/root/usr/bin/python$py" "\$@"
WRAPPER
chmod +x "$dir/python3"
"$dir/python3" -c 'import platform, sys; print(platform.machine(), "python", sys.version.split()[0], sys.byteorder, "endian")'
