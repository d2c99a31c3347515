"""shabench's command line as the tests drive it: a run in a child process, and the rows --list prints."""

import subprocess
import sys


def run_cli(argv, cwd, **kw):
    """`python -m shabench ARGV` from cwd (never the checkout, whose libsha/ would shadow the installed one)."""
    return subprocess.run([sys.executable, "-m", "shabench", *argv], capture_output=True, text=True, cwd=cwd, **kw)


def listed_rows(out):
    """The row titles in --list's output (indented under their group), with its marks."""
    return [line.strip() for line in out.splitlines() if line.startswith("  ")]
