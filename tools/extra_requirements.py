#!/usr/bin/env python3
"""Prints one optional-dependency group of pyproject.toml, one requirement per line, so that the
release scripts install their tools from the project's own list (pip install -r <(...)) without
building libsha itself, as `pip install '.[release]'` would.
    python3 tools/extra_requirements.py release
"""
import re
import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11
    sys.exit("extra_requirements.py needs Python 3.11 or later (tomllib)")

extras = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())["project"]["optional-dependencies"]
if len(sys.argv) != 2 or sys.argv[1] not in extras:
    sys.exit(f"usage: extra_requirements.py GROUP, one of {', '.join(sorted(extras))}")
for requirement in extras[sys.argv[1]]:
    if re.match(r"libsha\[", requirement):
        sys.exit(f"extra_requirements.py: {sys.argv[1]} includes {requirement}; list its packages instead")
    print(requirement)
