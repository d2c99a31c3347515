"""What the command line named as the candidate: its kind, where it lives, and how it is called."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from . import shapes

LIBRARY_KINDS = ("symbol", "stream", "d64", "level")
ROLES = {"symbol": ("symbol",), "d64": ("d64",), "level": ("level",), "stream": ("init", "update", "final")}
# The kinds that hash whole 64-byte blobs, a digest each: how many times SHA-256 is applied to a blob
# (SHA256D64: twice; a Merkle level, hashtree's hash(out, chunks, count): once), and what they are.
BLOB_HASHES = {"d64": 2, "level": 1}
BLOB_NAMES = {"d64": "a SHA256D64 candidate", "level": "a Merkle level candidate"}


class CandidateError(Exception):
    """The candidate cannot be loaded or called as described (a usage problem, exit status 2)."""


@dataclass(frozen=True)
class Spec:
    """One of the seven candidate kinds of `python -m libsha.oracle`."""

    kind: str  # "symbol", "stream", "d64", "level", "command", "callable", "object"
    library: str = ""
    names: tuple[str, ...] = ()  # symbol; INIT, UPDATE, FINAL; D64 or level function; MODULE:FUNCTION; MODULE:FACTORY
    shapes: tuple[tuple[str, ...], ...] = ()  # each function's arguments in order (shapes.py)
    ctx_size: int = 0
    command: str = ""
    digest_regex: str = ""

    def __post_init__(self) -> None:
        if self.kind in ROLES and not self.shapes:
            object.__setattr__(self, "shapes", tuple(shapes.default(r) for r in ROLES[self.kind]))

    @property
    def streaming(self) -> bool:
        """Whether the message can be fed in pieces (the splits suite applies)."""
        return self.kind in ("stream", "object")

    @property
    def in_memory(self) -> bool:
        """Whether the candidate reads a buffer we place (offsets, guard pages apply)."""
        return self.kind in LIBRARY_KINDS

    def with_shapes(self, new: tuple[tuple[str, ...], ...]) -> Spec:
        return Spec(self.kind, self.library, self.names, new, self.ctx_size, self.command, self.digest_regex)

    def shape_options(self) -> list[str]:
        """The --args/--init-args/--update-args/--final-args options of this spec, every one spelled out."""
        return [f"{shapes.OPTION[role]} {shapes.text(shape)}" for role, shape in zip(ROLES.get(self.kind, ()), self.shapes)]

    def describe(self) -> str:
        """The options that name this candidate: copied to a command line, they replay it exactly."""
        if self.kind == "command":
            regex = f" --digest-regex {shlex.quote(self.digest_regex)}" if self.digest_regex else ""
            return f"--command {shlex.quote(self.command)}{regex}"
        if self.kind in ("callable", "object"):
            return f"--{self.kind} {shlex.quote(self.names[0])}"
        words = [f"--library {shlex.quote(self.library)}"]
        if self.kind == "stream":
            words += [f"--stream {','.join(self.names)}", f"--ctx-size {self.ctx_size}"]
        else:
            words.append(f"--{self.kind} {self.names[0]}")
        return " ".join(words + self.shape_options())
