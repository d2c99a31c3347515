"""python -m libsha: the `libsha` command (libsha/cli.py)."""

import sys

from .cli import main

sys.exit(main())
