"""Checks an ELF shared library before dlopen sees it.

glibc's dlopen maps the segments an ELF header promises without checking the
file holds them: a truncated library then dies with SIGBUS inside dlopen. And a
library for another CPU is reported as "No such file or directory". Both get a
plain reason here instead.
"""

from __future__ import annotations

import os
import struct
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

# e_machine values (the ELF specification's registry) of the CPUs libsha builds for.
MACHINES = {3: "x86", 62: "x86_64", 40: "arm", 183: "aarch64", 243: "riscv", 21: "ppc64", 22: "s390x"}
THIS_MACHINE = {"x86_64": 62, "amd64": 62, "i386": 3, "i686": 3, "aarch64": 183, "arm64": 183,
                "armv7l": 40, "armv8l": 40, "riscv64": 243, "ppc64le": 21, "ppc64": 21, "s390x": 22}
PT_LOAD = 1


def _machine() -> str:
    # os.uname, not platform.machine: importing platform costs more than loading libsha.
    return os.uname().machine if hasattr(os, "uname") else ""


def problem(path: str) -> str | None:
    """Why this ELF file cannot be loaded here, or None (also for files that are not ELF). Reads
    the headers alone, not the whole library (on every import: hundreds of microseconds)."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        data = f.read(64)
        return _header_problem(f, data, size)


def _header_problem(f: BinaryIO, data: bytes, size: int) -> str | None:
    if data[:4] != b"\x7fELF":
        return None
    bits = {1: 32, 2: 64}.get(data[4]) if len(data) > 5 else None
    order = {1: "<", 2: ">"}.get(data[5]) if len(data) > 5 else None
    if bits is None or order is None:
        return "corrupt ELF header"
    if len(data) < (64 if bits == 64 else 52):
        return f"truncated ELF file ({size} bytes)"
    if bits != struct.calcsize("P") * 8:
        return f"a {bits}-bit library; this Python is {struct.calcsize('P') * 8}-bit"
    if order != ("<" if sys.byteorder == "little" else ">"):
        return "a library of the other byte order"
    machine = struct.unpack_from(order + "H", data, 18)[0]
    expected = THIS_MACHINE.get(_machine().lower())
    if expected is not None and machine != expected:
        built_for = MACHINES.get(machine, f"machine {machine}")
        return f"built for {built_for}; this process runs on {MACHINES[expected]}"
    if bits == 64:
        phoff, shoff = struct.unpack_from(order + "QQ", data, 32)
        phentsize, phnum, shentsize, shnum = struct.unpack_from(order + "HHHH", data, 54)
        segment = order + "I4xQ16xQ"  # p_type, p_offset, p_filesz
    else:
        phoff, shoff = struct.unpack_from(order + "II", data, 28)
        phentsize, phnum, shentsize, shnum = struct.unpack_from(order + "HHHH", data, 42)
        segment = order + "II8xI"
    if phoff + phnum * phentsize > size or (shoff and shoff + shnum * shentsize > size):
        return f"truncated ELF file: its headers lie past its {size} bytes"
    f.seek(phoff)
    table = f.read(phnum * phentsize)
    if len(table) < phnum * phentsize or phentsize < struct.calcsize(segment):
        return "corrupt ELF program headers"
    for i in range(phnum):
        p_type, p_offset, p_filesz = struct.unpack_from(segment, table, i * phentsize)
        if p_type == PT_LOAD and p_offset + p_filesz > size:
            return f"truncated ELF file: a segment ends at byte {p_offset + p_filesz} of {size}"
    return None
