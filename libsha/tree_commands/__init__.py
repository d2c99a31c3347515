"""The kernel trees' commands, each a drop-in for its own tool's: `libsha fsverity digest` for
fsverity-utils' and `libsha verity format` for cryptsetup's veritysetup. What both share: their
long options, parsed as getopt_long and popt parse them (--name=value or --name value, anywhere
among the operands; `--` ends them)."""

from __future__ import annotations


class UsageError(Exception):
    """A command line the tool would refuse with its usage."""


def parse(argv: list[str], options: dict[str, bool], program: str) -> tuple[list[str], list[tuple[str, str]]]:
    """(operands, [(option, value)] in order) of argv; options maps each long name (without --) to
    whether it takes a value. An unknown option, or one missing its value, is a UsageError."""
    operands: list[str] = []
    given: list[tuple[str, str]] = []
    args = iter(argv)
    for arg in args:
        if arg == "--":
            operands.extend(args)
            break
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
        elif not options[name] and has_value:
            raise UsageError(f"{program}: option '--{name}' doesn't allow an argument")
        given.append((name, value))
    return operands, given
