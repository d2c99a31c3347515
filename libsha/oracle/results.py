"""What a run found: each suite's counts and failures, and the report they make."""

from __future__ import annotations

from dataclasses import dataclass, field

from .runner import Case, Outcome
from .spec import Spec


@dataclass
class Failure:
    case: Case
    outcome: Outcome
    expected: bytes


@dataclass
class SuiteResult:
    name: str
    passed: int = 0
    failed: int = 0
    note: str = ""  # why it did not apply, or what was reduced
    first: Failure | None = None
    shrunk: Failure | None = None
    seconds: float = 0.0


@dataclass
class Report:
    spec: Spec
    seed: int
    results: list[SuiteResult] = field(default_factory=list)
    usage: str = ""  # the usage check's note, when one probe failed in a way the suites report
    speed: str = ""  # the candidate's measured speed, which set the time limits

    @property
    def failed(self) -> bool:
        return any(r.failed for r in self.results)
