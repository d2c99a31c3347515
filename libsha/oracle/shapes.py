"""Call shapes: the arguments a library candidate's functions take, in order (--args, --init-args,
--update-args, --final-args).

A shape is a tuple of words: `data`, `len`, `out`, `ctx`, `blocks`, or an integer constant
(`0`, `32`, `0x8`, `-1`). Each function has a role that says which words it must take once.
"""

from __future__ import annotations

# role: (default shape, words it must take, words it may take besides constants)
ROLES = {
    "symbol": (("data", "len", "out"), {"data", "len", "out"}, set()),
    "d64": (("out", "data", "blocks"), {"data", "out"}, {"blocks", "len"}),
    "init": (("ctx",), {"ctx"}, set()),
    "update": (("ctx", "data", "len"), {"ctx", "data", "len"}, set()),
    "final": (("ctx", "out"), {"ctx", "out"}, set()),
}
ROLES["level"] = ROLES["d64"]  # a Merkle level is called as SHA256D64 is: (out, in, blocks)
OPTION = {"symbol": "--args", "d64": "--args", "level": "--args", "init": "--init-args", "update": "--update-args",
          "final": "--final-args"}


def default(role: str) -> tuple[str, ...]:
    return ROLES[role][0]


def constant(word: str) -> int | None:
    """The integer a word stands for, or None when it names an argument."""
    try:
        return int(word, 0)
    except ValueError:
        return None


def parse(role: str, text: str) -> tuple[str, ...]:
    """The shape written as `text` for a function of this role; ValueError says what is wrong."""
    words = tuple(w.strip() for w in text.split(","))
    required, optional = ROLES[role][1], ROLES[role][2]
    names = [w for w in words if constant(w) is None]
    unknown = [w for w in names if w not in required | optional]
    if unknown or not all(words):
        allowed = ", ".join(sorted(required | optional))
        raise ValueError(f"{OPTION[role]} {text!r}: each word is one of {allowed} or an integer constant"
                         + (f" (not {', '.join(map(repr, unknown))})" if unknown else ""))
    for word in sorted(required):
        if names.count(word) != 1:
            raise ValueError(f"{OPTION[role]} {text!r}: needs {word!r} exactly once")
    if "blocks" in optional and names.count("blocks") + names.count("len") != 1:
        raise ValueError(f"{OPTION[role]} {text!r}: needs the count once, as 'blocks' (64-byte blobs) or 'len' (bytes)")
    for word in optional:
        if names.count(word) > 1:
            raise ValueError(f"{OPTION[role]} {text!r}: {word!r} twice")
    return words


def text(shape: tuple[str, ...]) -> str:
    return ",".join(shape)
