"""The text of `libsha sum`, as GNU coreutils 9.1's sha256sum writes and reads it.

Checksum lines (`HEX  NAME`, `HEX *NAME`, BSD `SHA256 (NAME) = HEX`, a
leading backslash when the name is escaped), the check-mode name escaping, and
the shell quoting of file names in messages on stderr. Names are bytes
throughout: a file name need not be valid in any encoding.
"""

from __future__ import annotations

from itertools import repeat

HEX_DIGITS = 64
_HEX = b"0123456789abcdefABCDEF"
_WHITE = b" \t"  # coreutils' ISWHITE
# The shortest GNU line: 64 digits, a space, the type character, one byte of name.
_MIN_LINE = HEX_DIGITS + 3


def needs_escape(name: bytes) -> bool:
    """Whether an output line escapes the name (and so starts with a backslash)."""
    return b"\\" in name or b"\n" in name or b"\r" in name


def escape(name: bytes) -> bytes:
    return name.replace(b"\\", b"\\\\").replace(b"\n", b"\\n").replace(b"\r", b"\\r")


def checksum_line(hex_digest: bytes, name: bytes, *, binary: bool, tag: bool, zero: bool) -> bytes:
    """One line of output for a file; `zero` ends it with NUL and never escapes."""
    escaped = not zero and needs_escape(name)
    shown = escape(name) if escaped else name
    if tag:
        line = b"SHA256 (" + shown + b") = " + hex_digest
    else:
        line = hex_digest + (b" *" if binary else b"  ") + shown
    return (b"\\" if escaped else b"") + line + (b"\0" if zero else b"\n")


def checksum_lines(hex_digests: bytes, names: list[bytes], *, binary: bool, tag: bool, zero: bool) -> bytes:
    """The lines of many files at once (hex_digests: 64 characters each, joined)."""
    hexes = [hex_digests[i : i + HEX_DIGITS] for i in range(0, len(hex_digests), HEX_DIGITS)]
    joined = b"".join(names)
    if not tag and (zero or not (b"\\" in joined or b"\n" in joined or b"\r" in joined)):
        # No name is escaped: the lines in one join, no Python per line.
        return b"".join(map(b"".join, zip(hexes, repeat(b" *" if binary else b"  "), names,
                                          repeat(b"\0" if zero else b"\n"))))
    return b"".join(checksum_line(h, n, binary=binary, tag=tag, zero=zero) for h, n in zip(hexes, names))


def check_name(name: bytes) -> bytes:
    """A name as check mode prints it before ': OK': escaped only when it holds a newline (as 9.1 does)."""
    return b"\\" + escape(name) if b"\n" in name else name


def unescape(text: bytes) -> bytes | None:
    """The name an escaped line stands for, or None where the escaping is invalid."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == 0:
            return None
        if c == 0x5C:  # backslash
            if i + 1 == len(text):
                return None
            nxt = text[i + 1 : i + 2]
            if nxt == b"n":
                out += b"\n"
            elif nxt == b"r":
                out += b"\r"
            elif nxt == b"\\":
                out += b"\\"
            else:
                return None
            i += 2
        else:
            out.append(c)
            i += 1
    return bytes(out)


def _valid_digits(digits: bytes) -> bool:
    return len(digits) == HEX_DIGITS and not digits.translate(None, _HEX)  # nothing left but hex: C speed


def _name(raw: bytes, escaped: bool) -> bytes | None:
    """The file name a line gives: unescaped (None where that is invalid), or, as C reads it,
    up to its first NUL."""
    return unescape(raw) if escaped else raw.split(b"\0", 1)[0]


class LineParser:
    """Parses check-mode lines as GNU does: (lowercase hex digest, name) or None for a malformed line.

    GNU remembers across lines (and across checksum files) whether it saw the
    reversed BSD form `HEX NAME` (one space): after a line in one form, lines in
    the other are malformed, so a crafted name with a leading space or `*`
    cannot change meaning. One parser per run keeps that.
    """

    def __init__(self) -> None:
        self._reversed: bool | None = None

    def parse(self, line: bytes) -> tuple[bytes, bytes] | None:
        i = 0
        while i < len(line) and line[i] in _WHITE:
            i += 1
        escaped = line[i : i + 1] == b"\\"
        if escaped:
            i += 1
        if line.startswith(b"SHA256", i):
            i += 6
            if line[i : i + 1] == b" ":
                i += 1
            if line[i : i + 1] != b"(":
                return None
            return self._bsd(line[i + 1 :], escaped)
        if len(line) - i < _MIN_LINE + (line[i : i + 1] == b"\\"):
            return None
        start = i
        while i < len(line) and line[i] not in _WHITE and line[i] != 0:
            i += 1
        if i == len(line):
            return None
        digits = line[start:i]
        if not _valid_digits(digits):  # a NUL ends the digits as a space does
            return None
        i += 1
        rest_length = len(line) - i
        if rest_length == 1 or line[i : i + 1] not in (b" ", b"*"):
            if self._reversed is False:
                return None
            self._reversed = True
        elif self._reversed is not True:
            self._reversed = False
            i += 1
        name = _name(line[i:], escaped)
        return None if name is None else (digits.lower(), name)

    @staticmethod
    def _bsd(rest: bytes, escaped: bool) -> tuple[bytes, bytes] | None:
        if not rest:
            return None
        close = rest.rfind(b")")
        if close < 0:
            return None
        name = _name(rest[:close], escaped)
        if name is None:
            return None
        i = close + 1
        while i < len(rest) and rest[i] in _WHITE:
            i += 1
        if rest[i : i + 1] != b"=":
            return None
        i += 1
        while i < len(rest) and rest[i] in _WHITE:
            i += 1
        digits = rest[i:]
        if not _valid_digits(digits):
            return None
        return digits.lower(), name


# Characters after which GNU's shell quoting puts a name in quotes (`#` and `~`
# only at the start), found by running sha256sum on every printable ASCII character.
_SHELL_SPECIAL = frozenset(" !\"$&'()*:;<=>?[\\^`|")
_DOUBLE_QUOTE_BREAKERS = frozenset("$\"\\`!")
_C_ESCAPES = {"\a": "a", "\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t", "\v": "v"}


def quote(name: bytes | str) -> str:
    """A file name as GNU quotes it in messages (gnulib's shell-escape style in a UTF-8 locale)."""
    raw = name if isinstance(name, bytes) else name.encode("utf-8", "surrogateescape")
    text = raw.decode("utf-8", "surrogateescape")
    if text == "":
        return "''"
    printable = all(c.isprintable() and not 0xDC80 <= ord(c) <= 0xDCFF for c in text)
    if printable and not any(c in _SHELL_SPECIAL for c in text) and text[0] not in "#~":
        return text
    if printable and "'" in text and not any(c in _DOUBLE_QUOTE_BREAKERS for c in text):
        return '"' + text + '"'
    out = ["'"]
    in_dollar = False  # inside a $'...' run of escapes
    for c in text:
        if c == "'":
            out.append("'\\''")
            in_dollar = False
        elif c.isprintable() and not 0xDC80 <= ord(c) <= 0xDCFF:
            if in_dollar:
                out.append("''")
                in_dollar = False
            out.append(c)
        else:
            if not in_dollar:
                out.append("'$'")
                in_dollar = True
            if c in _C_ESCAPES:
                out.append("\\" + _C_ESCAPES[c])
            else:
                out.extend(f"\\{b:03o}" for b in c.encode("utf-8", "surrogateescape"))
    out.append("'")
    return "".join(out)
