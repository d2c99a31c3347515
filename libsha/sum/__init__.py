"""`libsha sum`: a drop-in for GNU coreutils' sha256sum, with the files hashed in parallel.

command (the command: hashing, checking, messages and exit status), options (GNU-style option
parsing and --help), lines (checksum lines: GNU and BSD forms, escaping, quoting) and progress
(the --progress line). libsha/cli.py is the entry point.
"""

from .command import main

__all__ = ["main"]
