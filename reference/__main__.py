"""python -m libsha.reference --trace MESSAGE | --hex HEX: SHA-256 written out round by round."""

from __future__ import annotations

import argparse
import sys

from .trace import trace


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m libsha.reference",
        description="SHA-256 of a message, every step printed as NIST's example computations show them.",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--trace", metavar="MESSAGE", help="the message as text (hashed as UTF-8)")
    source.add_argument("--hex", metavar="HEX", help="the message as hex digits")
    args = parser.parse_args(argv)
    if args.hex is not None:
        try:
            message = bytes.fromhex(args.hex)
        except ValueError as exc:
            parser.error(f"--hex: {exc}")
    else:
        message = args.trace.encode()
    print(trace(message))
    return 0


if __name__ == "__main__":
    sys.exit(main())
