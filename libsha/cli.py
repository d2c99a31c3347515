"""The `libsha` command: `libsha sum` (a sha256sum), the kernel trees' tools, and what a C, C++,
Rust or Go build needs.

    libsha sum FILE...                      # as GNU sha256sum; libsha sum --help
    libsha fsverity digest FILE...          # as fsverity-utils' fsverity digest
    libsha verity format DATA HASH          # as cryptsetup's veritysetup format
    libsha ipfs add -n PATH...              # as Kubo's ipfs add --only-hash
    libsha commp FILE...                    # Filecoin piece commitments, as stream-commp
    cc prog.c $(libsha --cflags --libs)     # also: python -m libsha --cflags --libs
"""

from __future__ import annotations

import os
import sys

BUILD_FLAGS = (
    ("--include-dir", "the directory holding libsha.h"),
    ("--library", "the path of the bundled shared library"),
    ("--cflags", "compiler flags: -I<include dir>"),
    ("--libs", "linker flags, with an rpath so programs find it"),
    ("--version", "the library's version"),
)

USAGE = """\
usage: libsha sum [OPTION]... [FILE]...     SHA-256 of files, as GNU sha256sum (libsha sum --help)
       libsha fsverity digest FILE...       fs-verity file digests, as fsverity-utils' (--help)
       libsha verity format DATA HASH       a dm-verity hash tree, as veritysetup format's (--help)
       libsha ipfs add -n PATH...           IPFS CIDs, as Kubo's ipfs add --only-hash (--help)
       libsha commp [--json] FILE...        Filecoin piece commitments and CIDs (--help)
       libsha [--include-dir] [--library] [--cflags] [--libs] [--version]

""" + "".join(f"  {flag:<14} {text}\n" for flag, text in BUILD_FLAGS) + "  -h, --help     this help\n"


def include_dir() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


def library_path() -> str:
    from . import _native

    return os.path.abspath(_native.loaded()._name)


def build_flags(flags: list[str]) -> int:
    unknown = [f for f in flags if f not in {flag for flag, _ in BUILD_FLAGS} | {"-h", "--help"}]
    if not flags:
        sys.stdout.write(USAGE)
        return 2
    if unknown:
        sys.stderr.write(f"libsha: unknown option {unknown[0]!r}\n" + USAGE)
        return 2
    if "-h" in flags or "--help" in flags:
        sys.stdout.write(USAGE)
        return 0
    words: list[str] = []
    for flag, _ in BUILD_FLAGS:  # always in this order, whatever order they were given in
        if flag not in flags:
            continue
        if flag == "--include-dir":
            words.append(include_dir())
        elif flag == "--library":
            words.append(library_path())
        elif flag == "--cflags":
            words.append(f"-I{include_dir()}")
        elif flag == "--libs":
            libdir = os.path.dirname(library_path())
            words.append(f"-L{libdir} -lsha" if sys.platform == "win32" else f"-L{libdir} -lsha -Wl,-rpath,{libdir}")
        else:
            from . import _native

            words.append(_native.library_version())
    print(" ".join(words))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["sum"]:
        from .sum import main as sum_main

        return sum_main(args[1:])
    if args[:2] == ["fsverity", "digest"]:
        from .tree_commands.fsverity_digest import main as fsverity_digest

        return fsverity_digest(args[2:])
    if args[:2] == ["verity", "format"]:
        from .tree_commands.veritysetup_format import main as verity_format

        return verity_format(args[2:])
    if args[:1] == ["commp"]:
        from .tree_commands.filecoin_commp import main as commp

        return commp(args[1:])
    if args[:2] == ["ipfs", "add"]:
        from .tree_commands.ipfs_add import main as ipfs_add

        return ipfs_add(args[2:])
    return build_flags(args)


if __name__ == "__main__":
    sys.exit(main())
