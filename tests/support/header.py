"""What the tests read from libsha's installed public headers instead of keeping a copy: the layout
of a struct the header declares, as a ctypes Structure."""

import ctypes
import functools
import re
from pathlib import Path

from libsha.cli import include_dir

_TYPES = {"uint32_t": ctypes.c_uint32, "uint64_t": ctypes.c_uint64, "unsigned char": ctypes.c_ubyte,
          "int": ctypes.c_int, "size_t": ctypes.c_size_t}


@functools.lru_cache(maxsize=None)
def header_text():
    return "".join(path.read_text() for path in public_headers())


def public_headers():
    """The installed public headers: every .h of the include directory (libsha.h first)."""
    return sorted(Path(include_dir()).glob("*.h"), key=lambda path: (path.name != "libsha.h", path.name))


@functools.lru_cache(maxsize=None)
def struct(name):
    """typedef struct NAME {...} NAME; of the headers as a ctypes Structure (fields of plain types, arrays)."""
    body = re.search(r"typedef struct " + name + r" \{(.*?)\} " + name + ";", header_text(), re.S)[1]
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    fields = []
    for kind, field, count in re.findall(r"(uint32_t|uint64_t|unsigned char|int|size_t)\s+(\w+)(?:\[(\d+)\])?;", body):
        fields.append((field, _TYPES[kind] * int(count) if count else _TYPES[kind]))
    return type(name, (ctypes.Structure,), {"_fields_": fields})
