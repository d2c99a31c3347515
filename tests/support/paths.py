"""Where things are: the checkout's root and the tests' folder (the tests sit one folder below it,
by pipeline or tool), so no test counts parents of its own path."""

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
