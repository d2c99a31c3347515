"""The pytest test printed for a failure: standalone (hashlib, ctypes and subprocess only), it calls the
candidate in a child process, with the input placed where the oracle placed it (the same offset
past 64-byte alignment, or flush against a PROT_NONE page), so the failure shows again under pytest
and a crash fails the test instead of killing pytest."""

from __future__ import annotations

from . import shapes
from .results import Failure
from .spec import Spec

_PLACE_AT_OFFSET = """\
buffer = ctypes.create_string_buffer(len(data) + 128)
address = (ctypes.addressof(buffer) + 63) // 64 * 64 + {offset}  # {offset} bytes past 64-byte alignment
ctypes.memmove(address, data, len(data))
length = len(data)
"""
_PLACE_AGAINST_GUARD = """\
page = mmap.PAGESIZE
pages = len(data) // page + 2  # the data's pages, then one made unreadable: reading past the end faults
region = mmap.mmap(-1, pages * page)
base = ctypes.addressof(ctypes.c_char.from_buffer(region))
libc = ctypes.CDLL(None)
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
assert libc.mprotect(base + (pages - 1) * page, page, 0) == 0  # PROT_NONE
address = base + (pages - 1) * page - len(data)
ctypes.memmove(address, data, len(data))
length = len(data)
"""
_PLACE_ZEROS = """\
length = {length}
region = mmap.mmap(-1, length, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # zero bytes, no memory used
address = ctypes.addressof(ctypes.c_char.from_buffer(region))
"""


def reproducer(spec: Spec, f: Failure) -> str:
    """The source of a pytest test that fails as long as the candidate fails this case."""
    case = f.case
    child = _child(spec, f)
    data = "b''" if case.zeros else input_expression(f)
    if case.zeros:
        want = f"{f.expected.hex()!r}  # SHA-256 of {case.zeros:,} zero bytes (hashlib)"
    elif case.blobs:
        blob = "data[i:i + 64]"
        for _ in range(case.blobs - 1):
            blob = f"hashlib.sha256({blob}).digest()"
        want = f"''.join(hashlib.sha256({blob}).hexdigest()\n                   for i in range(0, len(data), 64))"
    else:
        want = "hashlib.sha256(data).hexdigest()"
    timeout = 600 if case.zeros else 60
    if spec.kind == "command":
        return _command_test(spec, data)
    return "\n".join([
        "import hashlib, subprocess, sys",
        "",
        f"CANDIDATE = r'''\n{child}'''",
        "",
        "",
        "def test_sha256_case():",
        f"    data = {data}",
        f"    want = {want}",
        f"    child = subprocess.run([sys.executable, '-c', CANDIDATE], input=data, capture_output=True, "
        f"timeout={timeout})",
        "    assert child.returncode == 0, f'the candidate died (status {child.returncode}): '"
        " + child.stderr.decode()[-2000:]",
        "    assert child.stdout.decode() == want",
    ])


def input_expression(f: Failure) -> str:
    """The input as a Python expression."""
    if f.case.zeros:
        return f"bytes({f.case.zeros})"
    data = f.case.data
    if len(data) <= 64 or not f.case.recipe:
        return f'bytes.fromhex("{data.hex()}")'
    return f.case.recipe


def _child(spec: Spec, f: Failure) -> str:
    case = f.case
    cuts = f"[0, {''.join(f'{s}, ' for s in case.splits)}len(data)]"
    if spec.kind in ("callable", "object"):
        module, _, name = spec.names[0].partition(":")
        if name.isidentifier():
            make, head = name, f"from {module} import {name}"
        else:
            make, head = f"eval({name!r}, vars(importlib.import_module({module!r})))", "import importlib"
        if spec.kind == "callable":
            body = [f"got = {make}(data)", "got = got.digest() if hasattr(got, 'digest') else got",
                    "got = bytes.fromhex(got) if isinstance(got, str) else got"]
        else:
            hasher = make if "(" in name else f"{make}()"
            body = [f"hasher = {hasher}", f"cuts = {cuts}", "for a, b in zip(cuts, cuts[1:]):",
                    "    hasher.update(data[a:b])",
                    "got = hasher.digest() if hasattr(hasher, 'digest') else hasher.finalize()"]
        return "\n".join(["import sys", head, "data = sys.stdin.buffer.read()", *body,
                          "sys.stdout.write(bytes(got).hex())", ""])
    lines = ["import ctypes, mmap, sys", "data = sys.stdin.buffer.read()"]
    if case.blobs:
        values = {"out": "out", "data": "source", "blocks": "ctypes.c_size_t(len(data) // 64)",
                  "len": "ctypes.c_size_t(len(data))"}
        lines += ["source = ctypes.create_string_buffer(data, max(len(data), 1))",
                  f"out = {'source' if case.in_place else 'ctypes.create_string_buffer(max(len(data) // 2, 1))'}"
                  + ("  # in place: out == in" if case.in_place else ""),
                  f"lib = ctypes.CDLL({spec.library!r})",
                  f"lib.{spec.names[0]}({_args(spec.shapes[0], values)})",
                  "sys.stdout.write(out.raw[:len(data) // 2].hex())", ""]
        return "\n".join(lines)
    if case.zeros:
        lines.append(_PLACE_ZEROS.format(length=case.zeros).rstrip())
        cuts = f"[0, {''.join(f'{s}, ' for s in case.splits)}length]"
    elif case.guard:
        lines.append(_PLACE_AGAINST_GUARD.rstrip())
    else:
        lines.append(_PLACE_AT_OFFSET.format(offset=case.offset).rstrip())
    lines += [f"lib = ctypes.CDLL({spec.library!r})", "out = ctypes.create_string_buffer(32)"]
    if spec.kind == "symbol":
        values = {"out": "out", "data": "ctypes.c_void_p(address)", "len": "ctypes.c_size_t(length)"}
        lines.append(f"lib.{spec.names[0]}({_args(spec.shapes[0], values)})")
    else:
        init, update, final = spec.names
        values = {"ctx": "ctx", "out": "out", "data": "ctypes.c_void_p(address + a)",
                  "len": "ctypes.c_size_t(b - a)"}
        lines += [f"ctx = ctypes.create_string_buffer({spec.ctx_size})",
                  f"lib.{init}({_args(spec.shapes[0], values)})",
                  f"cuts = {cuts}",
                  "for a, b in zip(cuts, cuts[1:]):",
                  f"    lib.{update}({_args(spec.shapes[1], values)})",
                  f"lib.{final}({_args(spec.shapes[2], values)})"]
    lines += ["sys.stdout.write(out.raw.hex())", ""]
    return "\n".join(lines)


def _args(shape: tuple[str, ...], values: dict[str, str]) -> str:
    return ", ".join(values[w] if shapes.constant(w) is None else f"ctypes.c_ssize_t({w})" for w in shape)


def _command_test(spec: Spec, data: str) -> str:
    if spec.digest_regex:
        find = [f"    found = re.search({spec.digest_regex!r}, text, re.MULTILINE)",
                "    assert found, f'no digest in {text!r}'",
                "    got = found.group(1) if found.groups() else found.group(0)"]
    else:
        find = ["    line = text.split('\\n')[0]",
                "    found = re.search(r'^\\\\?([0-9a-fA-F]{64})(?:\\s|$)', line) or "
                "re.search(r'=\\s*([0-9a-fA-F]{64})\\s*$', line)",
                "    assert found, f'no digest in {line!r}'",
                "    got = found.group(1)"]
    return "\n".join([
        "import hashlib, re, shlex, subprocess",
        "",
        "",
        "def test_sha256_case():",
        f"    data = {data}",
        f"    run = subprocess.run(shlex.split({spec.command!r}), input=data, capture_output=True, timeout=60)",
        "    assert run.returncode == 0, run.stderr.decode()[-2000:]",
        "    text = run.stdout.decode()",
        *find,
        "    assert got.strip().lower() == hashlib.sha256(data).hexdigest()",
    ])
