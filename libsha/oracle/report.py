"""The oracle's report: a row per suite, then each suite's smallest failing case with a pytest
snippet that reproduces it."""

from __future__ import annotations

from .candidate import Spec
from .check import Failure, Report


def text(report: Report) -> str:
    lines = [f"candidate: {report.spec.describe()}", f"seed: {report.seed} (--seed {report.seed} replays this run)", ""]
    rows = [("suite", "passed", "failed", "note")]
    for r in report.results:
        if r.note and not (r.passed or r.failed):
            rows.append((r.name, "-", "-", f"does not apply: {r.note}"))
        else:
            rows.append((r.name, str(r.passed), str(r.failed), f"{r.seconds:.1f} s" + (f"; {r.note}" if r.note else "")))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    for r in report.results:
        if r.shrunk is not None:
            lines += ["", f"{r.name}: first failure, shrunk to the smallest case found", *_failure(r.shrunk),
                      "", "reproduce with pytest:", _snippet(report.spec, r.shrunk)]
    lines += ["", "FAILED: the candidate is wrong on the cases above" if report.failed else "all cases passed"]
    return "\n".join(lines)


def _failure(f: Failure) -> list[str]:
    case = f.case
    length = case.zeros or len(case.data)
    lines = [f"  length: {length} bytes" + (f" ({length // 64} blobs)" if case.d64 else "")]
    if case.splits:
        lines.append(f"  split at: {', '.join(map(str, case.splits))}")
    if case.offset or case.guard:
        lines.append(f"  placed: {f'{case.offset} bytes past 64-byte alignment' if case.offset else ''}"
                     f"{'ending against an unreadable page' if case.guard else ''}")
    if case.in_place:
        lines.append("  in place (out == in)")
    if f.outcome.status == "ok":
        lines += [f"  expected: {f.expected.hex()}", f"  actual:   {f.outcome.digest.hex()}"]
    else:
        lines.append(f"  {f.outcome.status}: {f.outcome.detail}")
    lines.append(f"  input: {_input(f)}")
    return lines


def _input(f: Failure) -> str:
    if f.case.zeros:
        return f"bytes({f.case.zeros})"
    data = f.case.data
    if len(data) <= 64:
        return f'bytes.fromhex("{data.hex()}")'
    return f.case.recipe or f'bytes.fromhex("{data.hex()}")'


def _snippet(spec: Spec, f: Failure) -> str:
    case = f.case
    data = _input(f)
    if spec.kind == "callable":
        module, _, name = spec.names[0].partition(":")
        body = [f"from {module} import {name}", "", "def test_sha256_case():", f"    data = {data}",
                f"    got = {name}(data)", "    got = got.digest() if hasattr(got, 'digest') else got",
                "    got = bytes.fromhex(got) if isinstance(got, str) else got",
                "    assert got == hashlib.sha256(data).digest()"]
    elif spec.kind == "command":
        body = ["import shlex, subprocess", "", "def test_sha256_case():", f"    data = {data}",
                f"    out = subprocess.run(shlex.split({spec.command!r}), input=data, capture_output=True, check=True)",
                "    assert out.stdout.split()[0].decode().lstrip('\\\\') == hashlib.sha256(data).hexdigest()"]
    elif spec.kind == "d64":
        body = ["import ctypes", "", "def test_sha256d64_case():", f"    data = {data}",
                f"    fn = getattr(ctypes.CDLL({spec.library!r}), {spec.names[0]!r})",
                "    src = ctypes.create_string_buffer(data, max(len(data), 1))",
                "    out = src if " + str(case.in_place) + " else ctypes.create_string_buffer(max(len(data) // 2, 1))",
                "    fn(out, src, ctypes.c_size_t(len(data) // 64))",
                "    want = b''.join(hashlib.sha256(hashlib.sha256(data[i:i + 64]).digest()).digest()",
                "                    for i in range(0, len(data), 64))",
                "    assert out.raw[:len(want)] == want"]
    elif spec.kind == "symbol":
        body = ["import ctypes", "", "def test_sha256_case():", f"    data = {data}",
                f"    fn = getattr(ctypes.CDLL({spec.library!r}), {spec.names[0]!r})",
                "    out = ctypes.create_string_buffer(32)",
                "    fn(data, ctypes.c_size_t(len(data)), out)",
                "    assert out.raw == hashlib.sha256(data).digest()"]
    else:
        init, update, final = spec.names
        args = "out, ctx" if spec.final_out_first else "ctx, out"
        body = ["import ctypes", "", "def test_sha256_case():", f"    data = {data}",
                f"    lib = ctypes.CDLL({spec.library!r})",
                f"    ctx, out = ctypes.create_string_buffer({spec.ctx_size}), ctypes.create_string_buffer(32)",
                f"    lib.{init}(ctx)",
                f"    cuts = [0, {', '.join(map(str, case.splits))}{', ' if case.splits else ''}len(data)]",
                "    for a, b in zip(cuts, cuts[1:]):",
                f"        lib.{update}(ctx, data[a:b], ctypes.c_size_t(b - a))",
                f"    lib.{final}({args})",
                "    assert out.raw == hashlib.sha256(data).digest()"]
    return "\n".join(["import hashlib", *body])
