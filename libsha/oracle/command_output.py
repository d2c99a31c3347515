"""Finding the digest in what a --command candidate prints.

Accepted on the first line of stdout, as the common tools print a digest of stdin:
  GNU      `HEX  -` (sha256sum, shasum, busybox; a leading backslash for escaped names)
  BSD      `SHA256 (stdin) = HEX` (sha256 -r aside, BSD's and `--tag` output)
  OpenSSL  `SHA2-256(stdin)= HEX`, `SHA256(stdin)= HEX`, `(stdin)= HEX`
or wherever --digest-regex finds it (its first group, or the whole match).
"""

from __future__ import annotations

import re

_HEX = "[0-9a-fA-F]{64}"
FORMATS = (
    re.compile(rf"^\\?({_HEX})(?:\s|$)"),  # GNU: the digest first
    re.compile(rf"=\s*({_HEX})\s*$"),  # BSD, OpenSSL: the digest after '='
)


def compile_regex(text: str) -> re.Pattern[str]:
    """--digest-regex: ValueError when it is not a regular expression."""
    try:
        return re.compile(text, re.MULTILINE)
    except re.error as exc:
        raise ValueError(f"--digest-regex {text!r} is not a regular expression: {exc}") from None


def find_digest(stdout: bytes, regex: str = "") -> bytes | None:
    """The 32-byte digest the output shows, or None."""
    text = stdout.decode("utf-8", "replace")
    if regex:
        match = compile_regex(regex).search(text)
        if match is None:
            return None
        found = (match.group(1) if match.groups() else match.group(0)).strip()
        try:
            digest = bytes.fromhex(found)
        except ValueError:
            return None
        return digest if len(digest) == 32 else None
    first = text.split("\n", 1)[0].rstrip("\r")
    for pattern in FORMATS:
        match = pattern.search(first)
        if match:
            return bytes.fromhex(match.group(1))
    return None


def where(stdout: bytes, digest: bytes) -> int:
    """Where the digest's hex (either case) first appears in the output, or -1."""
    text = stdout.decode("utf-8", "replace").lower()
    return text.find(digest.hex())
