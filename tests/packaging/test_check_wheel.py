"""tools/check_wheel.py refuses the wheels a release must not ship: a wrong tag, a missing or extra
export, a foreign dependency, a wrong macOS minimum, a RECORD that lies; and passes a sound one."""

import base64
import functools
import hashlib
import importlib.util
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import libsha

from support.paths import ROOT

CHECK = ROOT / "tools" / "check_wheel.py"
INCLUDE = ROOT / "libsha" / "include"

# tooling: it checks tools/check_wheel.py on stand-ins and on the installed library, which in the
# sanitizer runs is an instrumented build that needs the sanitizers' runtimes.
pytestmark = [
    pytest.mark.tooling,
    pytest.mark.skipif(not CHECK.exists(), reason="needs the source checkout"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="builds ELF stand-ins with gcc on Linux"),
]
lief = pytest.importorskip("lief", reason="lief is in the release extra (part of the test extras)")


@functools.lru_cache(maxsize=None)
def check_wheel_module():
    """tools/check_wheel.py, whose reading of the public headers the tests share."""
    spec = importlib.util.spec_from_file_location("check_wheel", CHECK)
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_wheel"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def api_names():
    """What a library must export: the public headers' API and the internal loops shabench calls."""
    module = check_wheel_module()
    header = "".join((INCLUDE / name).read_text() for name in module.HEADERS)
    return sorted(module.api_functions(header) | module.internal_functions())


def make_wheel(folder, tag, library, library_name="libsha.so", record_ok=True, wheel_tag=None, accelerator=None,
               accelerator_name=None):
    """A wheel as scikit-build-core lays it out: the installed package's Python files, the header,
    the given library (and accelerator, under its own name or accelerator_name), WHEEL and a RECORD."""
    package = Path(libsha.__file__).parent
    files = {f"libsha/{p.name}": p.read_bytes() for p in package.glob("*.py")}
    for name in check_wheel_module().HEADERS:
        files[f"libsha/include/{name}"] = (INCLUDE / name).read_bytes()
    files[f"libsha/{library_name}"] = Path(library).read_bytes()
    if accelerator is not None:
        files[f"libsha/{accelerator_name or Path(accelerator).name}"] = Path(accelerator).read_bytes()
    full_tag = tag if tag.count("-") == 2 else f"py3-none-{tag}"  # a platform alone, or python-abi-platform
    files["libsha-0.1.0.dist-info/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\n"
                                              f"Tag: {wheel_tag or full_tag}\n").encode()
    rows = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        rows.append(f"{name},sha256={digest},{len(data)}")
    if not record_ok:
        files["libsha/_native.py"] += b"\n# changed after RECORD was written\n"
    rows.append("libsha-0.1.0.dist-info/RECORD,,")
    files["libsha-0.1.0.dist-info/RECORD"] = ("\n".join(rows) + "\n").encode()
    path = Path(folder) / f"libsha-0.1.0-{full_tag}.whl"
    with zipfile.ZipFile(path, "w") as wheel:
        for name, data in files.items():
            wheel.writestr(name, data)
    return path


def check(*args):
    result = subprocess.run([sys.executable, str(CHECK), *map(str, args)], capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def stand_in(tmp_path, compiler, suffix, names, extra_args=(), export="__attribute__((visibility(\"default\")))",
             extra_source=""):
    """A library exporting exactly `names`, functions that call into the C library (so that it
    links it, as libsha does), built with `compiler`."""
    source = tmp_path / "stand_in.c"
    source.write_text("#include <stdlib.h>\n"
                      + "".join(f'{export} void {name}(void) {{ (void)getenv("{name}"); }}\n' for name in names)
                      + extra_source)
    out = tmp_path / f"stand_in{suffix}"
    result = subprocess.run([*compiler, "-shared", "-fPIC", "-fvisibility=hidden", str(source), "-o", str(out), *extra_args],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return out


def installed_library():
    path = Path(libsha.__file__).parent / "libsha.so"
    if not path.exists():
        pytest.skip("the installed libsha has no libsha.so beside it")
    return path


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_a_sound_wheel_passes_and_says_what_it_found(tmp_path):
    code, out = check(make_wheel(tmp_path, "linux_x86_64", installed_library()))
    assert code == 0, out
    assert f"ELF, linux x86_64, {len(api_names())} exports, needs libc.so.6" in out


@pytest.mark.parametrize("tag, refusal", [
    ("linux_aarch64", "is for linux x86_64, the tag linux_aarch64 says linux arm64"),
    ("win_amd64", "a py3-none wheel for windows holds libsha/libsha.dll, and nothing else"),
    ("macosx_11_0_x86_64", "a py3-none wheel for macos holds libsha/libsha.dylib, and nothing else"),
    ("cp310-cp310-linux_x86_64", "tag cp310-cp310: libsha's wheels are py3-none"),
    ("cp312-cp312t-linux_x86_64", "tag cp312-cp312t: libsha's wheels are py3-none"),
    ("cp311-abi3-linux_x86_64", "a cp311-abi3 wheel for linux holds libsha/libsha.so and one accelerator"),
    ("cp313-cp313t-linux_x86_64", "a cp313-cp313t wheel for linux holds libsha/libsha.so and one accelerator"),
    ("py3-none-any", "platform tag 'any' is not one libsha's wheels use"),
])
def test_a_wrong_tag_is_refused(tmp_path, tag, refusal):
    code, out = check(make_wheel(tmp_path, tag, installed_library()))
    assert code == 1 and "REFUSED" in out and refusal in out, out


def test_a_wheel_file_whose_metadata_says_another_tag_is_refused(tmp_path):
    code, out = check(make_wheel(tmp_path, "linux_x86_64", installed_library(), wheel_tag="py3-none-linux_aarch64"))
    assert code == 1 and "WHEEL says Tag ['py3-none-linux_aarch64']" in out, out


def test_a_record_that_does_not_match_is_refused(tmp_path):
    code, out = check(make_wheel(tmp_path, "linux_x86_64", installed_library(), record_ok=False))
    assert code == 1 and "RECORD's hash or size for libsha/_native.py" in out, out


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_a_missing_or_an_extra_export_is_refused(tmp_path):
    names = api_names()
    code, out = check(make_wheel(tmp_path, "linux_x86_64", stand_in(tmp_path, ["gcc"], ".so", names)))
    assert code == 0, out  # the stand-in itself passes: what follows is the change alone
    (tmp_path / "missing").mkdir()
    lib = stand_in(tmp_path, ["gcc"], ".so", [n for n in names if n != "libsha_sha256_many"])
    code, out = check(make_wheel(tmp_path / "missing", "linux_x86_64", lib))
    assert code == 1 and "does not export libsha_sha256_many (declared LIBSHA_API" in out, out
    (tmp_path / "extra").mkdir()
    lib = stand_in(tmp_path, ["gcc"], ".so", names + ["sha256_transform_internal"])
    code, out = check(make_wheel(tmp_path / "extra", "linux_x86_64", lib))
    assert code == 1 and "exports sha256_transform_internal, which the public headers do not declare" in out, out
    (tmp_path / "no-bench").mkdir()
    lib = stand_in(tmp_path, ["gcc"], ".so", [n for n in names if n != "libsha_internal_bench"])
    code, out = check(make_wheel(tmp_path / "no-bench", "linux_x86_64", lib))
    assert code == 1 and "does not export libsha_internal_bench (shabench's loops" in out, out


@pytest.mark.parametrize("triple, tag, arch", [("powerpc64le-linux-gnu", "manylinux_2_17_ppc64le", "ppc64le"),
                                               ("s390x-linux-gnu", "manylinux_2_17_s390x", "s390x"),
                                               ("riscv64-linux-gnu", "manylinux_2_31_riscv64", "riscv64")])
def test_the_other_linux_cpus_wheels_pass_and_a_mismatch_is_refused(tmp_path, triple, tag, arch):
    # POWER's ELFv2 keeps each function's local entry point in st_other's high bits: its exports are
    # read off the low bits (visibility) alone.
    if shutil.which(f"{triple}-gcc") is None:
        pytest.skip(f"needs gcc-{triple} (.ci/run installs it)")
    lib = stand_in(tmp_path, [f"{triple}-gcc"], ".so", api_names())
    code, out = check(make_wheel(tmp_path, tag, lib))
    assert code == 0 and f"ELF, linux {arch}, {len(api_names())} exports, needs libc.so.6" in out, out
    (tmp_path / "other").mkdir()
    code, out = check(make_wheel(tmp_path / "other", "manylinux_2_17_x86_64", lib))
    assert code == 1 and f"is for linux {arch}, the tag manylinux_2_17_x86_64 says linux x86_64" in out, out


def test_the_public_header_has_no_benchmark_entry_point():
    module = check_wheel_module()
    public, internal = module.api_functions("".join((INCLUDE / name).read_text() for name in module.HEADERS)), module.internal_functions()
    assert internal and not public & internal
    from shabench import internal as shabench_internal

    assert internal == set(shabench_internal.SIGNATURES)  # what shabench declares is what bench.h exports
    assert not [n for n in public if "bench" in n or n.startswith(module.INTERNAL_PREFIX)], public


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_a_dependency_beyond_the_c_library_is_refused(tmp_path):
    extra = tmp_path / "libextra.so"
    (tmp_path / "extra.c").write_text("int extra(void) { return 1; }\n")
    subprocess.run(["gcc", "-shared", "-fPIC", str(tmp_path / "extra.c"), "-o", str(extra)], check=True)
    lib = stand_in(tmp_path, ["gcc"], ".so", api_names(), extra_args=["-Wl,--no-as-needed", f"-L{tmp_path}", "-lextra"])
    code, out = check(make_wheel(tmp_path, "linux_x86_64", lib))
    assert code == 1 and "needs libextra.so: not part of linux's C library" in out, out


@pytest.mark.skipif(shutil.which("x86_64-w64-mingw32-gcc") is None, reason="needs gcc-mingw-w64-x86-64 (.ci/run installs it)")
def test_a_windows_dll_with_a_foreign_import_is_refused(tmp_path):
    names = api_names()
    mingw = ["x86_64-w64-mingw32-gcc"]
    dll = stand_in(tmp_path, mingw, ".dll", names, export="__declspec(dllexport)")
    code, out = check(make_wheel(tmp_path, "win_amd64", dll, library_name="libsha.dll"))
    assert code == 0 and "PE, windows x86_64" in out, out
    (tmp_path / "user32").mkdir()
    # plus a real call into USER32, so that the import stays
    dll = stand_in(tmp_path / "user32", mingw, ".dll", names, extra_args=["-luser32"], export="__declspec(dllexport)",
                   extra_source="#include <windows.h>\n__declspec(dllexport) int libsha_version_box(void) "
                                "{ return MessageBoxA(0, 0, 0, 0); }\n")
    code, out = check(make_wheel(tmp_path / "user32", "win_amd64", dll, library_name="libsha.dll"))
    assert code == 1 and "needs USER32.dll: not part of windows's C library" in out, out
    assert "exports libsha_version_box, which the public headers do not declare" in out, out


def test_a_macos_library_needing_a_newer_macos_than_its_tag_is_refused(tmp_path):
    names = api_names()
    lib = stand_in(tmp_path, [sys.executable, "-m", "ziglang", "cc", "-target", "aarch64-macos.11.0"], ".dylib", names,
                   extra_args=["-Wl,-install_name,@rpath/libsha.dylib"])
    code, out = check(make_wheel(tmp_path, "macosx_11_0_arm64", lib, library_name="libsha.dylib"))
    assert code == 0 and "Mach-O, macos arm64" in out and "macOS minimum 11.0" in out, out
    (tmp_path / "newer").mkdir()
    lib = stand_in(tmp_path / "newer", [sys.executable, "-m", "ziglang", "cc", "-target", "aarch64-macos.13.0"], ".dylib", names,
                   extra_args=["-Wl,-install_name,@rpath/libsha.dylib"])
    code, out = check(make_wheel(tmp_path / "newer", "macosx_11_0_arm64", lib, library_name="libsha.dylib"))
    assert code == 1 and "needs macOS (13, 0) or later, the tag claims (11, 0)" in out, out



def installed_accelerator():
    found = sorted(Path(libsha.__file__).parent.glob("_accel*.so"))
    if not found:
        pytest.skip("the installed libsha has no accelerator (a py3-none wheel)")
    return found[0]


def own_tag():
    """This interpreter's version-specific wheel tag, e.g. cp311-cp311 or cp313-cp313t."""
    version = f"3{sys.version_info[1]}" + ("t" if sysconfig.get_config_var("Py_GIL_DISABLED") else "")
    return f"cp{version[:3]}-cp{version}"


def test_a_wheel_with_its_accelerator_passes(tmp_path):
    # Under the name the installed build has, with its tag; and the same module as an abi3 wheel's.
    accelerator = installed_accelerator()
    tag = "cp311-abi3" if accelerator.name == "_accel.abi3.so" else own_tag()
    code, out = check(make_wheel(tmp_path, f"{tag}-linux_x86_64", installed_library(), accelerator=accelerator))
    assert code == 0, out
    assert f"libsha/{accelerator.name}: ELF, linux x86_64, exports PyInit__accel" in out
    (tmp_path / "abi3").mkdir()
    code, out = check(make_wheel(tmp_path / "abi3", "cp311-abi3-linux_x86_64", installed_library(),
                                 accelerator=accelerator, accelerator_name="_accel.abi3.so"))
    assert code == 0, out


def test_an_accelerator_under_another_versions_name_is_refused(tmp_path):
    code, out = check(make_wheel(tmp_path, "cp312-cp312-linux_x86_64", installed_library(),
                                 accelerator=installed_accelerator(),
                                 accelerator_name="_accel.cpython-313-x86_64-linux-gnu.so"))
    assert code == 1 and "a cp312-cp312 wheel for linux holds libsha/libsha.so and one accelerator" in out, out


def test_an_accelerator_carrying_sha256_is_refused(tmp_path):
    # The library itself in the accelerator's place: its exports, its symbols and its round constants.
    code, out = check(make_wheel(tmp_path, "cp311-abi3-linux_x86_64", installed_library(), accelerator=installed_library(),
                                 accelerator_name="_accel.abi3.so"))
    assert code == 1 and "not PyInit__accel alone" in out and "holds SHA-256's round constants" in out, out
    assert "names libsha_" in out, out


def test_an_accelerator_in_a_py3_wheel_is_refused(tmp_path):
    code, out = check(make_wheel(tmp_path, "linux_x86_64", installed_library(), accelerator=installed_accelerator()))
    assert code == 1 and "a py3-none wheel for linux holds libsha/libsha.so, and nothing else" in out, out
