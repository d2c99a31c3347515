"""A source checkout's libsha/ imported in place of the installed package (Python looks in the
current directory first): said in one message, instead of a failure later and elsewhere."""

from __future__ import annotations

import importlib.util
import os


def refuse_a_shadowing_checkout(init_file: str) -> None:
    """Raises ImportError when this libsha/ is a source folder that cannot work: no libsha.reference
    (an editable install maps it; a plain checkout has it at reference/)."""
    if importlib.util.find_spec("libsha.reference") is not None:
        return
    folder = os.path.dirname(os.path.abspath(init_file))
    raise ImportError(
        f"libsha was imported from {folder}, the libsha/ folder of a source checkout, not from the installed "
        "package: Python looks in the current directory first, and this folder has neither the built library "
        "nor libsha.reference. Run from another directory, or install the checkout editable "
        "(pip install -e .) to use it in place.",
        name="libsha", path=init_file)
