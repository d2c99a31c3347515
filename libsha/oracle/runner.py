"""Runs cases on the candidate in isolation: a child process that a crash or a hang cannot take the
oracle down with (restarted after either), or one process per case for a --command candidate."""

from __future__ import annotations

import multiprocessing
import shlex
import subprocess
import time
from dataclasses import dataclass, field, replace

from . import command_output
from .candidate import serve
from .pace import Pace
from .spec import CandidateError, Spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class Case:
    """One input: data (fed in pieces cut at `splits` to a streaming candidate), placed `offset`
    bytes past alignment or against a guard page; for blob candidates (spec.BLOB_HASHES), whole 64-byte
    blobs, maybe in place, each hashed `blobs` times."""

    data: bytes
    splits: tuple[int, ...] = ()
    offset: int = 0
    guard: bool = False
    blobs: int = 0  # SHA-256 applications per 64-byte blob: 2 for SHA256D64, 1 for a Merkle level
    in_place: bool = False
    recipe: str = ""  # how to rebuild data, for long inputs in the report
    zeros: int = 0  # a large message of this many zero bytes, mapped in the child, not sent


@dataclass(frozen=True)
class Outcome:
    status: str  # "ok" (a digest came back), "crash", "hang", "raised"; check.py adds "wrong", "overrun"
    digest: bytes = b""
    detail: str = ""
    notes: dict[str, Any] = field(default_factory=dict, compare=False)  # candidate.Answer's
    output: bytes = field(default=b"", compare=False)  # a command's stdout


class Runner:
    def __init__(self, spec: Spec, timeout: float = 10.0) -> None:
        self.spec = spec
        self.pace = Pace(timeout)
        self._context = multiprocessing.get_context("spawn")
        self._process: Any = None
        self._connection: Any = None
        if spec.kind == "command":
            self.argv = shlex.split(spec.command)
            if not self.argv:
                raise CandidateError("--command is empty")
        else:
            self._start()

    def _start(self) -> None:
        parent, child = self._context.Pipe()
        self._process = self._context.Process(target=serve, args=(self.spec, child), daemon=True)
        self._process.start()
        child.close()
        self._connection = parent
        if not parent.poll(60):
            self.close()
            raise CandidateError("the candidate took over 60 s to load")
        try:
            status, message = parent.recv()
        except EOFError:
            self.close()
            raise CandidateError("the candidate crashed while loading") from None
        if status == "error":
            self.close()
            raise CandidateError(message)

    def close(self) -> None:
        if self._process is not None:
            try:
                self._connection.send(None)
            except (OSError, ValueError):
                pass
            self._process.join(1)
            if self._process.is_alive():
                self._process.kill()
                self._process.join()
            self._process = None

    def run(self, case: Case, limit: float | None = None) -> Outcome:
        """The candidate's answer to one case, within `limit` seconds (by default the pace's)."""
        length = case.zeros or len(case.data)
        limit = self.pace.limit(length) if limit is None else limit
        if self.spec.kind == "command":
            return self._run_command(case, limit)
        if case.zeros:
            request: tuple[str, tuple[Any, ...]] = ("zeros", (case.zeros, case.splits))
        elif case.blobs:
            request = ("blobs", (case.data, case.in_place))
        else:
            request = ("digest", (case.data, case.splits, case.offset, case.guard))
        try:
            self._connection.send(request)
        except (OSError, ValueError):
            self._restart()
            return Outcome("crash", detail="the child was gone before the case")
        if not self._connection.poll(limit):
            self._process.kill()
            self._restart()
            return Outcome("hang", detail=f"no answer in {limit:g} s")
        try:
            status, result = self._connection.recv()
        except EOFError:
            self._process.join(1)
            code = self._process.exitcode
            self._restart()
            return Outcome("crash", detail=_death(code))
        if status == "raised":
            return Outcome("raised", detail=result)
        self.pace.observe(length, result.seconds)
        return Outcome("ok", digest=result.digest, notes=result.notes)

    def _restart(self) -> None:
        try:
            self.close()
        finally:
            self._start()

    def _run_command(self, case: Case, limit: float) -> Outcome:
        start = time.perf_counter()
        try:
            result = subprocess.run(self.argv, input=case.data, capture_output=True, timeout=limit)
        except subprocess.TimeoutExpired:
            return Outcome("hang", detail=f"no answer in {limit:g} s")
        except OSError as exc:
            raise CandidateError(f"cannot run {self.argv[0]}: {exc}") from None
        self.pace.observe(len(case.data), time.perf_counter() - start)
        stderr = result.stderr.decode("utf-8", "replace").strip()[-300:]
        if result.returncode < 0:
            return Outcome("crash", detail=_death(result.returncode), output=result.stdout)
        if result.returncode != 0:
            return Outcome("raised", detail=f"exit status {result.returncode}; stderr: {stderr!r}",
                           output=result.stdout)
        digest = command_output.find_digest(result.stdout, self.spec.digest_regex)
        if digest is None:
            shown = result.stdout.decode("utf-8", "replace")[:100]
            return Outcome("raised", detail=f"no digest in its output (stdout: {shown!r}; stderr: {stderr!r})",
                           output=result.stdout)
        return Outcome("ok", digest=digest, output=result.stdout)


def judged(outcome: Outcome, expected: bytes) -> Outcome:
    """A digest that came back, judged: still "ok" when right; "overrun" when the candidate wrote past
    its context or output (whatever the digest), else "wrong". Other outcomes are returned as they are."""
    if outcome.status != "ok":
        return outcome
    ctx, out = outcome.notes.get("ctx_overrun", 0), outcome.notes.get("out_overrun", 0)
    if ctx or out:
        where = f"{ctx} bytes past the context" if ctx else f"{out} bytes past the output"
        return replace(outcome, status="overrun", detail=f"wrote {where}")
    return outcome if outcome.digest == expected else replace(outcome, status="wrong")


def _death(code: int | None) -> str:
    if code is not None and code < 0:
        import signal

        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"the child exited ({code})"
