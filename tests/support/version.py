"""The project's version, read where it is written once: CMakeLists.txt's project()."""

import re

from support.paths import ROOT


def project_version() -> str:
    (version,) = re.findall(r"^project\(libsha VERSION (\d+\.\d+\.\d+)", (ROOT / "CMakeLists.txt").read_text(), re.M)
    return version
