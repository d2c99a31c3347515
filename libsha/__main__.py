"""What a C, C++, Rust or Go build needs to use the libsha a wheel installed.

    cc prog.c $(python -m libsha --cflags --libs)
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import resources

from . import _native


def include_dir() -> str:
    return str(resources.files(__package__) / "include")


def library_path() -> str:
    return os.path.abspath(_native.lib()._name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m libsha", description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument("--include-dir", action="store_true", help="the directory holding libsha.h")
    parser.add_argument("--library", action="store_true", help="the path of the bundled shared library")
    parser.add_argument("--cflags", action="store_true", help="compiler flags: -I<include dir>")
    parser.add_argument("--libs", action="store_true", help="linker flags, with an rpath so programs find it")
    parser.add_argument("--version", action="store_true", help="the library's version")
    args = parser.parse_args(argv)
    words: list[str] = []
    if args.include_dir:
        words.append(include_dir())
    if args.library:
        words.append(library_path())
    if args.cflags:
        words.append(f"-I{include_dir()}")
    if args.libs:
        libdir = os.path.dirname(library_path())
        words.append(f"-L{libdir} -lsha" if sys.platform == "win32" else f"-L{libdir} -lsha -Wl,-rpath,{libdir}")
    if args.version:
        words.append(_native.lib().libsha_version().decode())
    if not words:
        parser.print_help()
        return 2
    print(" ".join(words))
    return 0


if __name__ == "__main__":
    sys.exit(main())
