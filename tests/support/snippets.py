"""The code blocks of the README and the docs pages, as tests/examples/test_doc_snippets.py runs them.

A block runs as it is written. What it needs and the page does not show (names a fragment uses,
files it reads, a build done earlier) is said in an HTML comment just above it, which a rendered
page hides:

    <!-- snippet
    given:
      key, msg = b"key", b"message"
    marks: build slow
    -->

`given:` is code in the block's language, run first (for C: declarations at the top of main);
`marks:` are the pytest markers the block needs (pyproject.toml lists them); `not run: REASON`
says why a block cannot run here, and is the only way to leave one out.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from support.paths import ROOT

FENCE = re.compile(r"^```(\w*)\n(.*?)^```[ \t]*$", re.S | re.M)
NOTE = re.compile(r"<!--\s*snippet\b(.*)-->\s*\Z", re.S)


def pages() -> list[Path]:
    """The pages a user reads: the README, docs/, and each example's README."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "examples").glob("*/README.md"))]


@dataclass
class Snippet:
    page: Path
    line: int  # of the opening fence
    language: str
    code: str
    given: str = ""
    marks: list[str] = field(default_factory=list)
    not_run: str | None = None

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def is_doctest(self) -> bool:
        return any(line.startswith(">>> ") for line in self.code.splitlines())


def _note(text: str) -> dict[str, str]:
    """The directives of a snippet note: 'given' (dedented code), 'marks', 'not run'."""
    directives: dict[str, str] = {}
    key = None
    for line in text.splitlines():
        match = re.match(r"(given|marks|not run):\s*(.*)$", line)
        if match:
            key = match.group(1)
            directives[key] = match.group(2)
        elif key == "given" and (line.startswith(" ") or not line.strip()):
            directives[key] += "\n" + line
        elif line.strip():
            raise ValueError(f"a snippet note's line is none of given:, marks:, not run: ({line!r})")
    if "given" in directives:
        directives["given"] = textwrap.dedent(directives["given"]).strip("\n") + "\n"
    return directives


def snippets(page: Path) -> list[Snippet]:
    text = page.read_text()
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()]
        note = NOTE.match(before[before.rfind("<!--"):]) if before.rstrip().endswith("-->") else None
        directives = _note(note.group(1)) if note else {}
        found.append(Snippet(page, text.count("\n", 0, match.start()) + 1, match.group(1), match.group(2),
                             directives.get("given", ""), directives.get("marks", "").split(),
                             directives.get("not run")))
    return found


def c_program(snippet: Snippet) -> str:
    """A C block as a program: its #include lines first, the given declarations and the rest as main's body."""
    includes = [line for line in snippet.code.splitlines() if line.startswith("#include")]
    body = [line for line in snippet.code.splitlines() if not line.startswith("#include")]
    return "\n".join(["#include <stdint.h>", "#include <stdio.h>", "#include <libsha.h>", *includes,
                      "int main(void)", "{", snippet.given, *body, "    return 0;", "}", ""])
