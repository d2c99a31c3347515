"""The trees' commands, each a drop-in for its own tool's: `libsha fsverity digest` for
fsverity-utils', `libsha verity format` for cryptsetup's veritysetup, `libsha ipfs add` for Kubo's
`ipfs add --only-hash`, `libsha commp` for go-fil-commp-hashhash's stream-commp. What they share:
their options, parsed as getopt_long, popt and Go's command parser parse them (--name=value or --name value, anywhere among the operands; short
flags, alone or run together, -s VALUE or -sVALUE; `--` ends them)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterator, Mapping


class UsageError(Exception):
    """A command line the tool would refuse with its usage."""


def parse(argv: list[str], options: Mapping[str, bool | None], program: str,
          short: dict[str, str] | None = None) -> tuple[list[str], list[tuple[str, str]]]:
    """(operands, [(option, value)] in order) of argv; options maps each long name (without --) to
    whether it takes a value (None: a Go bool, alone or as --name=true/false); short maps a letter
    to its long name. An unknown option, or one missing its value, is a UsageError."""
    short = short or {}
    operands: list[str] = []
    given: list[tuple[str, str]] = []
    args = iter(argv)
    for arg in args:
        if arg == "--":
            operands.extend(args)
            break
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 1 and short:
            _short_flags(arg, args, options, short, given, program)
            continue
        if not arg.startswith("--") or arg == "-":
            operands.append(arg)
            continue
        name, has_value, value = arg[2:].partition("=")
        if name not in options:
            raise UsageError(f"{program}: unrecognized option '{arg}'")
        if options[name] and not has_value:
            value = next(args, None)  # type: ignore[assignment]
            if value is None:
                raise UsageError(f"{program}: option '--{name}' requires an argument")
        elif options[name] is False and has_value:
            raise UsageError(f"{program}: option '--{name}' doesn't allow an argument")
        elif options[name] is None:
            value = _go_bool(name, value if has_value else "true", program)
        given.append((name, value))
    return operands, given


def _short_flags(arg: str, args: Iterator[str], options: Mapping[str, bool | None], short: dict[str, str],
                 given: list[tuple[str, str]], program: str) -> None:
    """-abc: each letter a flag, but one that takes a value takes the rest (or the next argument)."""
    for i, letter in enumerate(arg[1:], 1):
        name = short.get(letter)
        if name is None:
            raise UsageError(f"{program}: unrecognized option '-{letter}'")
        if options[name]:
            value = arg[i + 1 :] or next(args, None)
            if value is None:
                raise UsageError(f"{program}: option '-{letter}' requires an argument")
            given.append((name, value))
            return
        given.append((name, "true" if options[name] is None else ""))


def _go_bool(name: str, value: str, program: str) -> str:
    """Go's strconv.ParseBool, as a string: "true" or "false"."""
    if value in ("1", "t", "T", "TRUE", "true", "True"):
        return "true"
    if value in ("0", "f", "F", "FALSE", "false", "False"):
        return "false"
    raise UsageError(f"{program}: option '--{name}': invalid boolean value {value!r}")
