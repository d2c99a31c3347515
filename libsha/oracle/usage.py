"""The usage check: before any suite, the candidate hashes "" and "abc" (a D64 candidate: one and two
blobs). A crash, a hang or a wrong digest there is most often the call's shape, not the candidate,
so it ends the run with exit status 2 and what was recognised:

- SHA-224 instead of SHA-256 (an is224 flag left to chance);
- the digest in another byte order;
- out never written, or the digest found in the context (out and ctx swapped);
- writes past --ctx-size bytes (the context is larger) or past the 32-byte output;
- "abc" giving the digest of "" (the length does not arrive where it is passed);
- a command whose digest is in its output, but not where it is looked for;
- for a library candidate, another argument order that gives the right digests, tried.

When only one of the two is wrong and nothing is recognised, the call shape demonstrably works:
the suites run and report the candidate's failure (exit status 1) with its smallest case.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass

from . import command_output, shapes
from .runner import Case, Outcome, Runner, judged
from .spec import BLOB_HASHES, ROLES, CandidateError, Spec
from .suites import blob_digests

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterator

GUESS_LIMIT = 2.0  # seconds per case when trying other argument orders


class UsageProblem(CandidateError):
    """The candidate fails the usage check: most likely called in the wrong shape (exit status 2)."""


@dataclass
class Probe:
    label: str
    case: Case
    expected: bytes


def probes(spec: Spec) -> list[Probe]:
    if spec.kind in BLOB_HASHES:
        times, blobs = BLOB_HASHES[spec.kind], (bytes(range(64)), bytes(range(64, 192)))
        return [Probe(f"{len(b) // 64} blob{'s' * (len(b) > 64)}", Case(b, blobs=times), blob_digests(b, times))
                for b in blobs]
    return [Probe(repr(m.decode()), Case(m), hashlib.sha256(m).digest()) for m in (b"", b"abc")]


def passes(outcome: Outcome, expected: bytes) -> bool:
    return judged(outcome, expected).status == "ok"


def check(runner: Runner, spec: Spec) -> str:
    """'' when both probes pass; a note when one fails in a way the suites will report; else raises."""
    results = [(probe, runner.run(probe.case, runner.pace.floor)) for probe in probes(spec)]
    failed = [(p, o) for p, o in results if not passes(o, p.expected)]
    if not failed:
        return ""
    hints = list(dict.fromkeys(h for p, o in failed for h in hints_for(spec, p, o)))
    if len(failed) < len(results) and not hints:
        (probe, outcome), = failed
        right = next(p.label for p, o in results if passes(o, p.expected))
        return (f"usage check: {right} right, {probe.label} {_what(outcome, probe.expected)}: the call shape works, "
                f"so the suites report it")
    lines = ["the usage check failed: before any suite, the candidate was asked for known digests"]
    for probe, outcome in results:
        verdict = "right" if passes(outcome, probe.expected) else _what(outcome, probe.expected)
        lines.append(f"  {probe.label}: {verdict}")
    guessed = guess(spec, runner.pace.floor) if spec.in_memory else None
    if guessed is not None:
        hints.insert(0, f"called as {' '.join(guessed.shape_options())}, it gives the right digests: "
                        f"add {' '.join(_changed(spec, guessed))}")
    if not hints:
        hints.append(_shape_help(spec))
    lines += ["hint: " + h for h in hints]
    raise UsageProblem("\n".join(lines))


def _what(outcome: Outcome, expected: bytes) -> str:
    """What a failed probe gave, in a few words."""
    outcome = judged(outcome, expected)
    if outcome.status == "wrong":
        return f"wrong digest {outcome.digest.hex()}"
    return f"{outcome.status} ({outcome.detail})" if outcome.detail else outcome.status


def hints_for(spec: Spec, probe: Probe, outcome: Outcome) -> Iterator[str]:
    notes, got, want = outcome.notes, outcome.digest, probe.expected
    if notes.get("ctx_overrun"):
        size = spec.ctx_size + notes["ctx_overrun"]
        yield (f"the context is larger than --ctx-size {spec.ctx_size}: the candidate wrote up to byte {size} "
               f"of it (give its header's sizeof, at least --ctx-size {size})")
    if notes.get("out_overrun"):
        yield (f"the candidate wrote {notes['out_overrun']} bytes past the 32-byte output: is it SHA-256 "
               f"(SHA-384 and SHA-512 write 48 and 64), and is out where the shape puts it?")
    if spec.kind == "command":
        yield from _command_hints(spec, probe, outcome)
    if outcome.status != "ok" or spec.kind in BLOB_HASHES:
        return
    message = probe.case.data
    if got[:28] == hashlib.sha224(message).digest():
        yield ("your function computes SHA-224 (the first 28 bytes are SHA-224's): an is224 flag? Pass it as "
               "a constant, e.g. --args data,len,out,0 (mbedtls_sha256_ret) or --init-args ctx,0")
    elif got == b"".join(want[i : i + 4][::-1] for i in range(0, 32, 4)):
        yield "the digest's 32-bit words are little-endian: SHA-256's digest is its state words big-endian"
    elif got == want[::-1]:
        yield "the digest's bytes are reversed"
    elif notes.get("out_unwritten"):
        if want in notes.get("ctx_bytes", b""):
            yield "the digest was written into the context, not out: out and ctx swapped? (--final-args out,ctx)"
        else:
            yield "out was never written: is out where --args or --final-args puts it?"
    elif message and got == hashlib.sha256(b"").digest():
        yield f"{probe.label} gave the digest of '': the length does not arrive (check where len is in the shape)"


def _command_hints(spec: Spec, probe: Probe, outcome: Outcome) -> Iterator[str]:
    at = command_output.where(outcome.output, probe.expected)
    if at > 0 and (outcome.status != "ok" or outcome.digest != probe.expected):
        yield (f"the right digest is in the output (at character {at}), not where it is looked for (first on "
               f"the first line, or after '=' at its end): give --digest-regex, e.g. '([0-9a-f]{{64}})'")
    elif outcome.status == "raised" and "no digest" in outcome.detail:
        yield "the command printed no digest: does it read stdin? (many tools want '-' as the file name)"


def _shape_help(spec: Spec) -> str:
    if spec.kind == "command":
        return "the command gets the message on stdin and prints its digest (GNU, BSD or OpenSSL style)"
    if spec.kind == "callable":
        return "--callable's function gets bytes and returns the digest: 32 bytes, 64 hex digits or a hashlib object"
    if spec.kind == "object":
        return "--object's FACTORY() returns a fresh object with update(bytes), then digest() or finalize()"
    roles = ", ".join(f"{shapes.OPTION[r]} {shapes.text(s)}" for r, s in zip(ROLES[spec.kind], spec.shapes))
    extra = " and check --ctx-size" if spec.kind == "stream" else ""
    return (f"it was called as {roles}: give the real argument order (words: data, len, out, ctx, blocks, "
            f"integer constants){extra}")


def alternatives(spec: Spec) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Other common argument orders for the spec's functions, the nearest first."""
    if spec.kind == "symbol":
        for tail in ((), ("0",)):
            for order in itertools.permutations(("data", "len", "out")):
                yield ((*order, *tail),)
    elif spec.kind in BLOB_HASHES:
        for order in itertools.permutations(("out", "data", "blocks")):
            yield (order,)
    else:
        inits = (("ctx",), ("ctx", "0"))
        updates = (("ctx", "data", "len"), ("ctx", "len", "data"))
        finals = (("ctx", "out"), ("out", "ctx"), ("ctx", "32", "out"))
        yield from itertools.product(inits, updates, finals)


def guess(spec: Spec, floor: float) -> Spec | None:
    """A spec with another argument order that passes both probes, or None."""
    for shape in alternatives(spec):
        if shape == spec.shapes:
            continue
        trial = spec.with_shapes(shape)
        try:
            runner = Runner(trial, floor)
        except CandidateError:
            return None
        try:
            if all(passes(runner.run(p.case, min(floor, GUESS_LIMIT)), p.expected) for p in probes(trial)):
                return trial
        finally:
            runner.close()
    return None


def _changed(spec: Spec, guessed: Spec) -> list[str]:
    return [new for old, new in zip(spec.shape_options(), guessed.shape_options()) if old != new]
