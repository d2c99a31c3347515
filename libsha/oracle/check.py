"""Runs the usage check, then the suites on a candidate, and shrinks each suite's first failure."""

from __future__ import annotations

import time
from dataclasses import replace

from . import suites, usage
from .results import Failure, Report, SuiteResult
from .runner import Case, Runner, judged
from .spec import BLOB_HASHES, Spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


MAX_DEATHS = 20  # crashes or hangs after which a suite stops


def _verdict(runner: Runner, case: Case) -> Failure | None:
    want = suites.expected(case)
    outcome = judged(runner.run(case), want)
    return None if outcome.status == "ok" else Failure(case, outcome, want)


def _silent(line: str) -> None:
    pass


def run(spec: Spec, names: list[str], seed: int, seconds: float, timeout: float = 10.0, quick: bool = False,
        progress: Callable[[str], None] = _silent) -> Report:
    """The report of every named suite; raises usage.UsageProblem when the usage check fails."""
    report = Report(spec, seed)
    runner = Runner(spec, timeout)
    try:
        report.usage = usage.check(runner, spec)
        for name in names:
            result = SuiteResult(name)
            report.results.append(result)
            result.note = suites.applies(name, spec)
            if result.note:
                continue
            if name == "nist":
                result.note = suites.monte_note(spec, quick)
            start, deaths = time.monotonic(), 0
            for case in suites.cases(name, spec, seed, seconds, quick):
                if case.zeros:
                    progress(f"{name}: {case.zeros:,} bytes{_pieces(case)}; speed {runner.pace.describe()}, "
                             f"limit {runner.pace.limit(case.zeros):.0f} s")
                failure = _verdict(runner, case)
                if case.zeros:
                    progress(f"{name}: {'passed' if failure is None else failure.outcome.status} "
                             f"({runner.pace.describe()})")
                if failure is None:
                    result.passed += 1
                    continue
                result.failed += 1
                if result.first is None:
                    result.first = failure
                if name == "large":  # gigabytes per case: the first failure is the answer
                    result.note = "stopped at its first failure"
                    break
                deaths += failure.outcome.status in ("crash", "hang")
                if deaths >= MAX_DEATHS:  # each costs a new child: enough to know
                    result.note = "; ".join(filter(None, [result.note, f"stopped after {MAX_DEATHS} crashes or hangs"]))
                    break
            if result.first is not None:
                progress(f"{name}: shrinking its first failure")
                result.shrunk = shrink(runner, result.first)
            result.seconds = time.monotonic() - start
            progress(f"{name}: {result.passed} passed, {result.failed} failed in {result.seconds:.1f} s")
        report.speed = runner.pace.describe()
    finally:
        runner.close()
    return report


def _pieces(case: Case) -> str:
    if not case.splits:
        return " in one call"
    cuts = [0, *case.splits, case.zeros]
    return f" in {len(cuts) - 1} pieces ({', '.join(f'{b - a:,}' for a, b in zip(cuts, cuts[1:]))})"


def shrink(runner: Runner, failure: Failure) -> Failure:
    """The smallest failing case near this one: shorter (same kind of content), fewer splits, offset 0."""
    best = failure
    case = failure.case
    if case.zeros:  # large cases are already the smallest of their kind
        return failure
    if not case.blobs:
        for length in _shorter(len(case.data)):
            start = _start_of(case)
            data = suites.content(length, start) if start is not None else case.data[:length]
            trial = replace(case, data=data, splits=tuple(s for s in case.splits if s <= length),
                            recipe=suites.recipe(length, start) if start is not None else "")
            found = _verdict(runner, trial)
            if found is not None:
                best = found
                break
    else:
        for blobs in range(len(case.data) // 64):
            trial = replace(case, data=case.data[: 64 * blobs], recipe="")
            found = _verdict(runner, trial)
            if found is not None:
                best = found
                break
    for index in range(len(best.case.splits)):
        trial = replace(best.case, splits=best.case.splits[:index] + best.case.splits[index + 1 :])
        found = _verdict(runner, trial)
        if found is not None:
            best = found
    for change in ({"offset": 0}, {"guard": False}, {"in_place": False}):
        trial = replace(best.case, **change)
        if trial != best.case:
            found = _verdict(runner, trial)
            if found is not None:
                best = found
    return best


def _start_of(case: Case) -> int | None:
    """The content's start if the data is ours (suites.content), so a shorter one can be made."""
    for start in range(251):
        if case.data[:8] == suites.content(min(8, len(case.data)), start):
            if case.data == suites.content(len(case.data), start):
                return start
            break
    return None


def _shorter(length: int) -> list[int]:
    """Lengths below `length` to try, smallest first: all of them when short, else the block borders."""
    if length <= 2200:
        return list(range(length))
    near = {b + d for b in range(0, length, 64) for d in (-1, 0, 1)}
    return sorted(n for n in near | set(range(300)) | set(range(length - 130, length)) if 0 <= n < length)


def as_json(report: Report) -> dict[str, Any]:
    from .reproduce import reproducer

    def failure(f: Failure | None, with_reproducer: bool = False) -> dict[str, Any] | None:
        if f is None:
            return None
        entry = {"length": f.case.zeros or len(f.case.data), "splits": list(f.case.splits),
                 "offset": f.case.offset, "guard": f.case.guard, "blobs": f.case.blobs,
                 "d64": f.case.blobs == BLOB_HASHES["d64"],  # the key before --level, kept for readers of it
                 "in_place": f.case.in_place,
                 "status": f.outcome.status, "detail": f.outcome.detail, "expected": f.expected.hex(),
                 "actual": f.outcome.digest.hex(),
                 "input": f.case.data.hex() if not f.case.zeros and len(f.case.data) <= 256 else None,
                 "recipe": f.case.recipe or None}
        if with_reproducer:
            entry["reproducer"] = reproducer(report.spec, f)
        return entry

    return {"schema": "libsha-oracle/2", "candidate": report.spec.describe(), "seed": report.seed,
            "passed": not report.failed, "usage_check": report.usage or "passed", "speed": report.speed,
            "suites": [{"name": r.name, "passed": r.passed, "failed": r.failed, "note": r.note,
                        "seconds": round(r.seconds, 3), "first_failure": failure(r.first),
                        "smallest_failure": failure(r.shrunk, True)} for r in report.results]}
