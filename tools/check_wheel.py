#!/usr/bin/env python3
"""Checks a libsha wheel before release: would it load and work on the platform its tag names?

    python tools/check_wheel.py WHEEL [WHEEL ...]
    python tools/check_wheel.py --library LIBRARY PLATFORM_TAG   # e.g. a FreeBSD build: freebsd_14_0_amd64

Reads the wheel and the native library inside it (with lief, which parses ELF, Mach-O and PE; no
header is parsed by hand here) and refuses the wheel, exit 1, listing every problem, unless:
- the file name's tag and the WHEEL metadata agree, and the tag is py3-none-<platform> (ctypes
  needs no Python ABI), or one with the accelerator, libsha._accel: cp3XY-cp3XY-<platform> (3.11 and
  later, built for that version), cp3XY-cp3XYt-<platform> (free-threaded, 3.13 and later) or
  cp311-abi3-<platform> (the limited API's build, for later versions with the GIL);
- the RECORD lists every file with its right hash and size;
- the wheel holds exactly one native library, under the name the wheel's own `_loader.py` looks
  for first on that OS, and no other binary;
- the library is for the tag's OS and CPU, and on macOS its minimum version (LC_BUILD_VERSION, or
  LC_VERSION_MIN_MACOSX) is the one the tag claims;
- it exports every LIBSHA_API function of the wheel's `libsha.h` and `libsha_dispatch.h`, and the libsha_internal_ loops
  that shabench calls (LIBSHA_INTERNAL_API in the checkout's libsha/src/bench/bench.h), and nothing else;
- it needs nothing but the system's C library: libSystem on macOS; KERNEL32 and the C runtime on
  Windows (the UCRT, part of Windows 10 and later, msvcrt, or the VCRUNTIME140 that CPython ships);
  libc on Linux and FreeBSD, with their POSIX threads (libsha_sha256_files' read-ahead thread):
  libpthread where glibc is older than 2.34 (the manylinux images), libthr on FreeBSD;
- an accelerated wheel's accelerator has the file name its tag's interpreter imports, is for the same
  OS and CPU, exports PyInit__accel alone, needs only the C library (and on Windows python3.dll, or
  the version's own python3XY[t].dll), and holds no SHA-256: no libsha symbol, no round constant (it
  calls the library's entry points, handed over at import).
With --library, the library's checks alone, against the checkout's headers (for builds with no
wheel, such as FreeBSD's, whose tags PyPI does not take). Needs `lief` (pip install lief; it is in the test extras).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import re
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

# What a library may link, by OS (compared case-insensitively for Windows).
ALLOWED_DEPENDENCIES = {
    "macos": [r"/usr/lib/libSystem\.B\.dylib"],
    "windows": [r"kernel32\.dll", r"api-ms-win-crt-[a-z0-9-]+\.dll", r"ucrtbase\.dll", r"msvcrt\.dll",
                r"vcruntime140\.dll"],
    # glibc; musl, under Alpine's name or its own (musl has no symbol versions).
    "linux": [r"libc\.so\.6", r"libpthread\.so\.0", r"ld-linux-(x86-64|aarch64|riscv64-lp64d)\.so\.[12]",
              r"ld64\.so\.[12]", r"libc\.musl-(x86_64|aarch64|ppc64le|s390x|riscv64)\.so\.1", r"libc\.so"],
    "freebsd": [r"libc\.so\.7", r"libthr\.so\.3"],
}
# sys.platform on each OS, to ask the wheel's _loader.py which file name it loads there.
SYS_PLATFORM = {"macos": "darwin", "windows": "win32", "linux": "linux", "freebsd": "freebsd14"}
BINARY_SUFFIXES = (".so", ".dylib", ".dll", ".pyd", ".a", ".lib", ".exe", ".o", ".obj")
# Symbols a linker defines in every shared object (ELF's section ends; Mach-O's header and DSO
# handle, without their leading underscore); they are not part of any API.
LINKER_SYMBOLS = {"_init", "_fini", "_edata", "_end", "__bss_start", "_mh_dylib_header", "__dso_handle"}


@dataclass
class Platform:
    os: str
    arch: str  # x86_64, arm64, or Linux's ppc64le, s390x, riscv64
    macos_min: tuple[int, int] | None = None


def parse_platform_tag(tag: str) -> Platform | None:
    if m := re.fullmatch(r"macosx_(\d+)_(\d+)_(x86_64|arm64)", tag):
        return Platform("macos", m[3], (int(m[1]), int(m[2])))
    if m := re.fullmatch(r"win_(amd64|arm64)", tag):
        return Platform("windows", {"amd64": "x86_64", "arm64": "arm64"}[m[1]])
    if m := re.fullmatch(r"(?:linux|manylinux\d*(?:_\d+_\d+)?|musllinux_\d+_\d+)_(x86_64|aarch64|ppc64le|s390x|riscv64)", tag):
        return Platform("linux", "arm64" if m[1] == "aarch64" else m[1])
    if m := re.fullmatch(r"freebsd_[\w.]+_(amd64|arm64|aarch64)", tag):
        return Platform("freebsd", "x86_64" if m[1] == "amd64" else "arm64")
    return None


# The accelerator's wheel tags (pyproject.toml's overrides): the limited API's, and each version's own.
ABI3_TAG = ("cp311", "abi3")
VERSION_TAG = re.compile(r"cp3(\d+)-cp3\1(t?)")


def accelerator_names(py: str, abi: str, os_name: str, arch: str = "x86_64") -> tuple[str, str] | None:
    """(a regex of the accelerator's file name in a wheel of that tag on that OS, as its interpreter
    imports it (importlib.machinery.EXTENSION_SUFFIXES), the DLL it may need on Windows); None for a
    tag with no accelerator."""
    if (py, abi) == ABI3_TAG:
        return (r"libsha/_accel\.pyd" if os_name == "windows" else r"libsha/_accel\.abi3\.so"), r"python3\.dll"
    m = VERSION_TAG.fullmatch(f"{py}-{abi}")
    if m is None or int(m[1]) < 11 or (m[2] and int(m[1]) < 13):
        return None
    version = f"3{m[1]}{m[2]}"
    win, linux = {"x86_64": ("amd64", "x86_64"), "arm64": ("arm64", "aarch64")}.get(arch, (arch, arch))
    linux = {"ppc64le": "powerpc64le"}.get(linux, linux)  # (the GNU triple's spelling)
    suffix = {"windows": rf"cp{version}-win_{win}\.pyd", "macos": rf"cpython-{version}-darwin\.so",
              "linux": rf"cpython-{version}-{linux}-linux-(gnu|musl)\.so",
              "freebsd": rf"cpython-{version}\.so"}[os_name]
    return rf"libsha/_accel\.{suffix}", rf"python{version}\.dll"
# SHA-256's first two round constants, 428a2f98 71374491 (FIPS 180-4 4.2.2), as a table of 32-bit
# words holds them in little-endian and in big-endian memory.
SHA256_K = (bytes.fromhex("982f8a4291443771"), bytes.fromhex("428a2f9871374491"))

INTERNAL_HEADER = Path(__file__).resolve().parent.parent / "libsha" / "src" / "bench" / "bench.h"
INTERNAL_PREFIX = "libsha_internal_"


def api_functions(header: str, macro: str = "LIBSHA_API") -> set[str]:
    """The functions a header declares with `macro` (not the macro's own definitions)."""
    return set(re.findall(rf"^{macro}\b[^;(]*?\b(\w+)\s*\(", header, re.M))


def internal_functions() -> set[str]:
    """The internal loops the library exports for shabench alone, as libsha/src/bench/bench.h declares them."""
    return api_functions(INTERNAL_HEADER.read_text(), "LIBSHA_INTERNAL_API")


def record_problems(wheel: zipfile.ZipFile) -> list[str]:
    names = [n for n in wheel.namelist() if not n.endswith("/")]
    records = [n for n in names if re.fullmatch(r"[^/]+\.dist-info/RECORD", n)]
    if len(records) != 1:
        return [f"expected one .dist-info/RECORD, found {len(records)}"]
    problems, listed = [], set()
    for row in csv.reader(io.StringIO(wheel.read(records[0]).decode())):
        if not row:
            continue
        path, digest, size = (row + ["", ""])[:3]
        listed.add(path)
        if path == records[0]:
            continue
        if path not in names:
            problems.append(f"RECORD lists {path}, which the wheel lacks")
            continue
        data = wheel.read(path)
        want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        if digest != want or size != str(len(data)):
            problems.append(f"RECORD's hash or size for {path} is not the file's")
    problems += [f"{n} is in the wheel but not in RECORD" for n in names if n not in listed]
    return problems


def loader_filename(unpacked: Path, os_name: str) -> str:
    """The file name the wheel's own libsha/_loader.py looks for first on that OS (run in a subprocess,
    isolated from any installed libsha; importing _loader loads no library)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import libsha._loader as n; "
            "print(n.library_filenames(sys.argv[2])[0])")
    result = subprocess.run([sys.executable, "-I", "-c", code, str(unpacked), SYS_PLATFORM[os_name]],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"the wheel's libsha/_loader.py did not say its library's name: {result.stderr.strip()}")
    return result.stdout.strip()


def binary_facts(lief, path: Path) -> dict:
    """OS, CPU, exports, dependencies and macOS minimum of one library, read with lief."""
    binary = lief.parse(str(path))
    if binary is None:
        return {"format": "not a library lief can read"}
    if isinstance(binary, lief.PE.Binary):
        machine = binary.header.machine
        arch = {lief.PE.Header.MACHINE_TYPES.AMD64: "x86_64", lief.PE.Header.MACHINE_TYPES.ARM64: "arm64"}.get(machine, str(machine))
        exports = {e.name for e in binary.get_export().entries} if binary.has_exports else set()
        return {"format": "PE", "os": "windows", "arch": arch, "exports": exports,
                "needs": [i.name for i in binary.imports], "macos_min": None}
    if isinstance(binary, lief.MachO.Binary):
        cpu = binary.header.cpu_type
        arch = {lief.MachO.Header.CPU_TYPE.X86_64: "x86_64", lief.MachO.Header.CPU_TYPE.ARM64: "arm64"}.get(cpu, str(cpu))
        # Mach-O C symbols carry a leading underscore.
        exports = {s.name[1:] if s.name.startswith("_") else s.name for s in binary.exported_symbols} - LINKER_SYMBOLS
        own = binary.get(lief.MachO.LoadCommand.TYPE.ID_DYLIB)
        minimum = None
        if binary.has_build_version:
            minimum = tuple(binary.build_version.minos[:2])
        elif binary.has_version_min:
            minimum = tuple(binary.version_min.version[:2])
        # lief lists the library's own install name (LC_ID_DYLIB) among the libraries it loads.
        needs = [lib.name for lib in binary.libraries if lib.command != lief.MachO.LoadCommand.TYPE.ID_DYLIB]
        return {"format": "Mach-O", "os": "macos", "arch": arch, "exports": exports, "needs": needs,
                "macos_min": minimum, "install_name": own.name if own else None}
    if isinstance(binary, lief.ELF.Binary):
        machine = binary.header.machine_type
        little = binary.header.identity_data == lief.ELF.Header.ELF_DATA.LSB
        arch = {lief.ELF.ARCH.X86_64: "x86_64", lief.ELF.ARCH.AARCH64: "arm64", lief.ELF.ARCH.S390: "s390x",
                lief.ELF.ARCH.RISCV: "riscv64", lief.ELF.ARCH.PPC64: "ppc64le" if little else "ppc64"}.get(machine, str(machine))
        # The ELF header's OS/ABI is SYSV on both Linux and FreeBSD (zig's linker, like most); the
        # versions of libc's symbols the library needs tell them apart: FBSD_1.x or GLIBC_2.x.
        versions = {aux.name.split("_")[0] for req in binary.symbols_version_requirement
                    for aux in req.get_auxiliary_symbols()}
        if binary.header.identity_os_abi == lief.ELF.Header.OS_ABI.FREEBSD or "FBSD" in versions:
            os_name = "freebsd"
        elif "GLIBC" in versions or any(lib.startswith("libc.musl-") or lib == "libc.so" for lib in binary.libraries):
            os_name = "linux"
        else:
            os_name = "an unknown OS (no FreeBSD, glibc or musl symbol versions)"
        # Visibility is st_other's two low bits (0: DEFAULT); POWER's ELFv2 keeps each function's local
        # entry offset in the high bits, which lief's visibility field does not mask.
        exports = {s.name for s in binary.dynamic_symbols
                   if s.shndx != 0 and s.binding in (lief.ELF.Symbol.BINDING.GLOBAL, lief.ELF.Symbol.BINDING.WEAK)
                   and s.other & 3 == 0 and s.name} - LINKER_SYMBOLS
        return {"format": "ELF", "os": os_name, "arch": arch, "exports": exports,
                "needs": list(binary.libraries), "macos_min": None}
    return {"format": type(binary).__name__}


def check(wheel_path: Path) -> tuple[list[str], list[str]]:
    """(problems, facts): what is wrong with the wheel, and what was found."""
    problems: list[str] = []
    facts: list[str] = []
    m = re.fullmatch(r"([^-]+)-([^-]+)(?:-\d[^-]*)?-([^-]+)-([^-]+)-([^-]+)\.whl", wheel_path.name)
    if not m:
        return [f"{wheel_path.name} is not a wheel file name"], facts
    _, _, py, abi, plat = m.groups()
    if (py, abi) != ("py3", "none") and accelerator_names(py, abi, "linux") is None:
        problems.append(f"tag {py}-{abi}: libsha's wheels are py3-none (ctypes needs no Python ABI), or with the "
                        f"accelerator cp3XY-cp3XY (3.11+), cp3XY-cp3XYt (free-threaded 3.13+) or cp311-abi3")
    # A compressed tag set (manylinux_2_17_x86_64.manylinux2014_x86_64) must name one OS and CPU.
    platforms = [parse_platform_tag(p) for p in plat.split(".")]
    if None in platforms or len({(p.os, p.arch, p.macos_min) for p in platforms if p}) != 1:
        return problems + [f"platform tag {plat!r} is not one libsha's wheels use"], facts
    platform = platforms[0]

    with zipfile.ZipFile(wheel_path) as wheel, tempfile.TemporaryDirectory() as tmp:
        problems += record_problems(wheel)
        metadata = [n for n in wheel.namelist() if re.fullmatch(r"[^/]+\.dist-info/WHEEL", n)]
        if len(metadata) != 1:
            return problems + ["expected one .dist-info/WHEEL"], facts
        text = wheel.read(metadata[0]).decode()
        tags = re.findall(r"^Tag: (\S+)$", text, re.M)
        if sorted(tags) != sorted(f"{py}-{abi}-{p}" for p in plat.split(".")):
            problems.append(f"WHEEL says Tag {tags}, the file name says {py}-{abi}-{plat}")
        if not re.search(r"^Root-Is-Purelib: false$", text, re.M):
            problems.append("WHEEL does not say Root-Is-Purelib: false (the wheel carries a native library)")

        wheel.extractall(tmp)
        unpacked = Path(tmp)
        binaries = sorted(n for n in wheel.namelist() if PurePosixPath(n).name.lower().endswith(BINARY_SUFFIXES))
        try:
            expected = "libsha/" + loader_filename(unpacked, platform.os)
        except RuntimeError as exc:
            return problems + [str(exc)], facts
        names = accelerator_names(py, abi, platform.os, platform.arch)
        accelerators = [b for b in binaries if names is not None and re.fullmatch(names[0], b)]
        others = [b for b in binaries if b != expected and b not in accelerators]
        if expected not in binaries or others or len(accelerators) != (names is not None):
            wanted = f"{expected}" + (" and one accelerator" if names is not None else "")
            problems.append(f"the wheel's binaries are {binaries}; a {py}-{abi} wheel for {platform.os} holds {wanted}, "
                            "and nothing else")
        if names is not None and len(accelerators) == 1:
            accel_problems, accel_facts = check_accelerator(unpacked / accelerators[0], platform, plat, accelerators[0],
                                                            names[1])
            problems += accel_problems
            facts += accel_facts
        if expected not in wheel.namelist():
            return problems, facts
        missing = [name for name in HEADERS if not (unpacked / "libsha" / "include" / name).is_file()]
        if missing:
            return problems + [f"the wheel lacks libsha/include/{name}" for name in missing], facts
        header = "".join((unpacked / "libsha" / "include" / name).read_text() for name in HEADERS)
        library_problems, library_facts = check_library(unpacked / expected, header, platform, plat, name=expected)
    return problems + library_problems, facts + library_facts


# The public headers, the files of the checkout's libsha/include: every LIBSHA_API function they declare is
# exported, and nothing else but bench.h's loops.
HEADERS = tuple(sorted(path.name for path in (INTERNAL_HEADER.parents[2] / "include").glob("*.h")))


def check_library(path: Path, header: str, platform: Platform, plat: str, name: str) -> tuple[list[str], list[str]]:
    """(problems, facts) of one native library meant for `platform` (tag `plat`)."""
    import lief

    lief.logging.disable()
    problems: list[str] = []
    facts: list[str] = []
    api = api_functions(header)
    if not api:
        return problems + ["libsha.h declares no LIBSHA_API function: is it libsha's header?"], facts
    internal = internal_functions()
    problems += [f"libsha.h declares {n}: the {INTERNAL_PREFIX} prefix is for bench.h alone"
                 for n in sorted(api) if n.startswith(INTERNAL_PREFIX)]
    problems += [f"bench.h declares {n} without the {INTERNAL_PREFIX} prefix"
                 for n in sorted(internal) if not n.startswith(INTERNAL_PREFIX)]

    found = binary_facts(lief, path)
    if "os" not in found:
        return problems + [f"{name} is {found['format']}"], facts
    facts.append(f"{name}: {found['format']}, {found['os']} {found['arch']}, {len(found['exports'])} exports, "
                 f"needs {', '.join(found['needs']) or 'nothing'}"
                 + (f", macOS minimum {found['macos_min'][0]}.{found['macos_min'][1]}" if found["macos_min"] else "")
                 + (f", install name {found['install_name']}" if found.get("install_name") else ""))
    if (found["os"], found["arch"]) != (platform.os, platform.arch):
        problems.append(f"{name} is for {found['os']} {found['arch']}, the tag {plat} says {platform.os} {platform.arch}")
    install_name = found.get("install_name")
    if found["format"] == "Mach-O" and not (install_name or "").startswith(("@rpath/", "@loader_path/")):
        # An absolute install name is the build machine's path: it leaks, and a program that
        # links the library would look for it there.
        problems.append(f"{name}'s install name is {install_name!r}, not @rpath/ or @loader_path/")
    if platform.macos_min is not None and found["macos_min"] != platform.macos_min:
        problems.append(f"{name} needs macOS {found['macos_min']} or later, the tag claims {platform.macos_min}")
    missing, extra = sorted(api - found["exports"]), sorted(found["exports"] - api - internal)
    if missing:
        problems.append(f"{name} does not export {', '.join(missing)} (declared LIBSHA_API in the public headers)")
    if internal - found["exports"]:
        problems.append(f"{name} does not export {', '.join(sorted(internal - found['exports']))} "
                        "(shabench's loops, declared in libsha/src/bench/bench.h)")
    if extra:
        problems.append(f"{name} exports {', '.join(extra)}, which the public headers do not declare")
    allowed = ALLOWED_DEPENDENCIES[platform.os]
    flags = re.I if platform.os == "windows" else 0
    foreign = [d for d in found["needs"] if not any(re.fullmatch(a, d, flags) for a in allowed)]
    if foreign:
        problems.append(f"{name} needs {', '.join(foreign)}: not part of {platform.os}'s C library")
    return problems, facts


def check_accelerator(path: Path, platform: Platform, plat: str, name: str, python_dll: str) -> tuple[list[str], list[str]]:
    """(problems, facts) of the accelerator: a CPython module for the tag's platform that holds no SHA-256
    (python_dll: a regex of the CPython DLL it may need on Windows)."""
    import lief

    lief.logging.disable()
    found = binary_facts(lief, path)
    if "os" not in found:
        return [f"{name} is {found['format']}"], []
    facts = [f"{name}: {found['format']}, {found['os']} {found['arch']}, exports {', '.join(sorted(found['exports']))}, "
             f"needs {', '.join(found['needs']) or 'nothing'}"]
    problems = []
    if (found["os"], found["arch"]) != (platform.os, platform.arch):
        problems.append(f"{name} is for {found['os']} {found['arch']}, the tag {plat} says {platform.os} {platform.arch}")
    if found["exports"] != {"PyInit__accel"}:
        problems.append(f"{name} exports {sorted(found['exports'])}, not PyInit__accel alone")
    allowed = ALLOWED_DEPENDENCIES[platform.os] + ([python_dll] if platform.os == "windows" else [])
    flags = re.I if platform.os == "windows" else 0
    foreign = [d for d in found["needs"] if not any(re.fullmatch(a, d, flags) for a in allowed)]
    if foreign:
        problems.append(f"{name} needs {', '.join(foreign)}: the accelerator needs the C library (and CPython's DLL)")
    binary = lief.parse(str(path))
    named = sorted({s.name.lstrip("_") for s in binary.symbols if s.name.lstrip("_").startswith("libsha_")})
    if named:
        problems.append(f"{name} names {', '.join(named)}: it must reach the library through the addresses bound at import")
    data = path.read_bytes()
    if any(k in data for k in SHA256_K):
        problems.append(f"{name} holds SHA-256's round constants: a copy of a kernel, not a call into libsha")
    return problems, facts


def report(label: str, problems: list[str], facts: list[str]) -> bool:
    for fact in facts:
        print(f"{label}: {fact}")
    if problems:
        print(f"{label}: REFUSED", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        return False
    print(f"{label}: ok")
    return True


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    try:
        import lief  # noqa: F401
    except ImportError:
        print("check_wheel: needs lief (pip install lief; it is in libsha's test extras)", file=sys.stderr)
        return 2
    if argv[0] == "--library":
        if len(argv) != 3:
            print("usage: check_wheel.py --library LIBRARY PLATFORM_TAG", file=sys.stderr)
            return 2
        path, plat = Path(argv[1]), argv[2]
        platform = parse_platform_tag(plat)
        if platform is None or not path.is_file():
            print(f"check_wheel: {plat!r} is not a platform tag libsha uses" if platform is None
                  else f"check_wheel: {path}: no such file", file=sys.stderr)
            return 2
        include = Path(__file__).resolve().parent.parent / "libsha" / "include"
        header = "".join((include / name).read_text() for name in HEADERS)
        return 0 if report(plat, *check_library(path, header, platform, plat, name=path.name)) else 1
    ok = True
    for name in argv:
        path = Path(name)
        if not path.is_file():
            print(f"{name}: no such file", file=sys.stderr)
            ok = False
            continue
        ok = report(path.name, *check(path)) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
