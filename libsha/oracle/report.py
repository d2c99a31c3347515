"""The oracle's report: a row per suite, then each distinct smallest failing case with a pytest
test that reproduces it."""

from __future__ import annotations

from .pace import RULE
from .reproduce import input_expression, reproducer
from .results import Failure, Report


def text(report: Report) -> str:
    lines = [f"candidate: {report.spec.describe()}", f"seed: {report.seed} (--seed {report.seed} replays this run)"]
    if report.usage:
        lines.append(report.usage)
    lines += [f"time limits: {RULE}; measured speed: {report.speed}", ""]
    rows = [("suite", "passed", "failed", "note")]
    for r in report.results:
        if r.note and not (r.passed or r.failed):
            rows.append((r.name, "-", "-", f"does not apply: {r.note}"))
        else:
            rows.append((r.name, str(r.passed), str(r.failed), f"{r.seconds:.1f} s" + (f"; {r.note}" if r.note else "")))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    for names, failure in distinct_failures(report):
        lines += ["", f"{', '.join(names)}: first failure, shrunk to the smallest case found", *_failure(failure),
                  "", "reproduce with pytest:", reproducer(report.spec, failure)]
    lines += ["", "FAILED: the candidate is wrong on the cases above" if report.failed else "all cases passed"]
    return "\n".join(lines)


def distinct_failures(report: Report) -> list[tuple[list[str], Failure]]:
    """Each distinct shrunk failure once, with the suites that led to it."""
    found: dict[tuple[object, ...], tuple[list[str], Failure]] = {}
    for r in report.results:
        if r.shrunk is not None:
            f = r.shrunk
            c = f.case  # the recipe is how it is written, not what it is
            key = (c.data, c.splits, c.offset, c.guard, c.blobs, c.in_place, c.zeros, f.outcome.status,
                   f.outcome.digest)
            found.setdefault(key, ([], f))[0].append(r.name)
    return list(found.values())


def _failure(f: Failure) -> list[str]:
    case = f.case
    length = case.zeros or len(case.data)
    lines = [f"  length: {length} bytes" + (f" ({length // 64} blobs)" if case.blobs else "")]
    if case.splits:
        lines.append(f"  split at: {', '.join(map(str, case.splits))}")
    if case.offset or case.guard:
        lines.append(f"  placed: {f'{case.offset} bytes past 64-byte alignment' if case.offset else ''}"
                     f"{'ending against an unreadable page' if case.guard else ''}")
    if case.in_place:
        lines.append("  in place (out == in)")
    if f.outcome.status == "wrong":
        lines += [f"  expected: {f.expected.hex()}", f"  actual:   {f.outcome.digest.hex()}"]
    else:
        lines.append(f"  {f.outcome.status}: {f.outcome.detail}")
    lines.append(f"  input: {input_expression(f)}")
    return lines
