"""The library and the accelerator as built here need no glibc symbol version from 2.34 on: glibc 2.34
gave dlopen, dlsym, dlerror, pthread_create and pthread_join new versions, and a binary that binds to
them makes auditwheel tag its wheel manylinux_2_34, which older systems refuse (libsha/src/glibc_base.h
binds their first versions instead)."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import libsha

pytestmark = pytest.mark.skipif(shutil.which("objdump") is None, reason="needs objdump (binutils)")


def glibc_versions(path):
    """The GLIBC_x.y versions the ELF file's dynamic symbols name, as (x, y) tuples."""
    out = subprocess.run(["objdump", "-T", str(path)], capture_output=True, text=True, check=True).stdout
    return {tuple(int(n) for n in v.split(".")[:2]) for v in re.findall(r"GLIBC_(\d+\.\d+(?:\.\d+)?)", out)}


def test_the_installed_binaries_need_no_glibc_2_34_symbol():
    folder = Path(libsha.__file__).parent
    binaries = sorted(folder.glob("*.so"))
    if not binaries or not any(glibc_versions(b) for b in binaries):
        pytest.skip("no glibc-linked ELF file installed here (another OS or libc)")
    for binary in binaries:
        assert all(v < (2, 34) for v in glibc_versions(binary)), (binary.name, sorted(glibc_versions(binary)))
