"""Choosing an implementation: masks, names, select/using, LIBSHA_IMPL, switching under load."""

import ctypes
import hashlib
import os
import platform
import subprocess
import sys
import textwrap
import threading

import pytest

import libsha
from support.data import sha256d64_by_hashlib
from libsha import _errors, _native
from support import rows
from support.rows import ARM, AVX2, AVX2_1WAY, AVX512, SHANI, SHANI_4WAY, SHANI_AVX512, SSE4

pytestmark = [pytest.mark.core, pytest.mark.binding]

RUNNABLE = {i.name for i in libsha.dispatch.implementations() if i.runnable}
# What the automatic choice may take on this CPU, as the library decides it (runnable, and the CPU
# model table's advice where a row needs it): never a copy of the table (tests/rows/test_cpu_models.py
# pins the table's entries on synthetic CPUs).
AUTOMATIC = {i.name for i in libsha.dispatch.implementations() if i.automatic}
FEATURES = set(libsha.dispatch.cpu_features())


def best_of(*candidates):
    """The first candidate the automatic choice may take on this CPU."""
    return next(name for name in candidates if name in AUTOMATIC)


@pytest.fixture(autouse=True)
def restore_choice():
    previous = libsha.dispatch.implementation()
    yield
    libsha.dispatch.select(previous)


@pytest.mark.parametrize(
    "use, candidates",
    [
        (libsha.dispatch.USE_STANDARD, ["standard"]),
        (libsha.dispatch.USE_SSE4, [SSE4, "standard"]),
        (libsha.dispatch.USE_SSE4 | libsha.dispatch.USE_AVX2, [AVX2_1WAY, AVX2, SSE4, "standard"]),
        (libsha.dispatch.USE_SSE4 | libsha.dispatch.USE_SHANI, [SHANI, ARM, SSE4, "standard"]),
        (libsha.dispatch.USE_SSE4 | libsha.dispatch.USE_AVX2 | libsha.dispatch.USE_AVX512, [AVX512, AVX2_1WAY, AVX2, SSE4, "standard"]),
        (libsha.dispatch.USE_ALL, [SHANI_AVX512, SHANI_4WAY, SHANI, AVX512, AVX2_1WAY, AVX2, SSE4, ARM, "standard"]),
        # Bitcoin Core's USE_ALL (7) never picks an AVX-512 row, nor SHA-NI's four lanes (in AVX-512VL's registers).
        (libsha.dispatch.USE_SSE4 | libsha.dispatch.USE_AVX2 | libsha.dispatch.USE_SHANI, [SHANI, AVX2_1WAY, AVX2, SSE4, ARM, "standard"]),
        # As in Bitcoin Core, x86's AVX2 and SHA-NI build on SSE4: without it, neither;
        # ARM's SHA-2 needs USE_SHANI alone.
        (libsha.dispatch.USE_AVX2, ["standard"]),
        (libsha.dispatch.USE_SHANI, [ARM, "standard"]),
        (libsha.dispatch.USE_AVX2 | libsha.dispatch.USE_SHANI, [ARM, "standard"]),
        (libsha.dispatch.USE_AVX512, ["standard"]),
    ],
)
def test_mask_semantics_follow_bitcoin_core(use, candidates):
    assert libsha.dispatch.autodetect(use) == best_of(*candidates) == libsha.dispatch.implementation()


def test_names_are_bitcoin_cores():
    # The tests' portable row (-DLIBSHA_TEST_PORTABLE_LANES, the sanitizer build) comes after standard.
    names = [i.name for i in libsha.dispatch.implementations() if "portable" not in i.name]
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64", "i686"):
        # The AVX-512 rows are in builds whose compiler takes AVX-512 (every one we ship).
        assert names in ([SHANI_AVX512, SHANI_4WAY, SHANI, AVX512, AVX2_1WAY, AVX2, SSE4, "standard"],
                         [SHANI, AVX2_1WAY, AVX2, SSE4, "standard"])
    elif machine in ("aarch64", "arm64"):
        assert names == [ARM, "standard"]
    else:
        assert names[-1] == "standard"


def test_runnable_flags_match_cpu_features():
    runnable = {i.name: i.runnable for i in libsha.dispatch.implementations()}
    if SHANI in runnable:
        assert runnable[SHANI] == ("sha" in FEATURES)
        if SHANI_AVX512 in runnable:
            assert runnable[SHANI_AVX512] == ({"sha", "avx512"} <= FEATURES)
            assert runnable[AVX512] == ({"avx2", "bmi2", "avx512"} <= FEATURES)
        assert runnable[AVX2_1WAY] == ({"avx2", "bmi2"} <= FEATURES)
        assert runnable[AVX2] == ("avx2" in FEATURES)
        assert runnable[SSE4] == ("sse4.1" in FEATURES)
    if ARM in runnable:
        assert runnable[ARM] == ("arm-sha2" in FEATURES)
    assert runnable["standard"]
    for impl in libsha.dispatch.implementations():  # what each row says it needs, against what it runs on
        assert impl.runnable == (set(impl.features) <= FEATURES), impl
        assert impl.automatic == (impl.runnable and set(impl.tuning) <= set(libsha.dispatch.cpu_tuning())), impl


@pytest.mark.parametrize("use", range(libsha.dispatch.USE_ALL + 1))
def test_the_automatic_choice_is_the_library_s_decision_for_this_cpu(use):
    # implementation_for is the pure decision; autodetect installs its answer (every row here passes its self-test).
    tuning = libsha.dispatch.cpu_tuning()
    assert libsha.dispatch.autodetect(use) == libsha.dispatch.implementation_for(FEATURES, tuning, use)


def test_this_cpu_s_model_entry_and_advice_agree_with_the_table():
    model, tuning = libsha.dispatch.cpu_model(), libsha.dispatch.cpu_tuning()
    table = dict(libsha.dispatch.cpu_models())
    assert tuning == (table[model] if model is not None else [])
    assert set(tuning) <= set(libsha.dispatch.CPU_TUNING)
    print(f"this CPU: model table entry {model!r}, advice {tuning}, features {sorted(FEATURES)}")


# The kernel's names for the CPUID bits behind each feature libsha detects (None: not an x86 feature).
KERNEL_FLAGS = {"sse4.1": {"ssse3", "sse4_1"}, "avx": {"avx"}, "avx2": {"avx2"}, "bmi2": {"bmi1", "bmi2"},
                "avx512": {"avx512f", "avx512vl", "avx512bw"}, "sha": {"sha_ni"}, "arm-sha2": None}


@pytest.mark.skipif(not (sys.platform.startswith("linux") and platform.machine() in ("x86_64", "i686")),
                    reason="reads x86 Linux's /proc/cpuinfo")
def test_detected_features_match_the_kernel_s_reading_of_this_cpu():
    # An independent reading of the same CPUID bits (Linux also drops AVX's flags where XSAVE is off):
    # a wrong bit in the library's feature table shows here.
    assert set(KERNEL_FLAGS) == set(libsha.dispatch.CPU_FEATURES), "a feature libsha detects has no kernel flags here"
    flags = next(set(line.split(":", 1)[1].split()) for line in open("/proc/cpuinfo") if line.startswith("flags"))
    for feature, needs in KERNEL_FLAGS.items():
        assert (feature in FEATURES) == (needs is not None and needs <= flags), (feature, needs & flags if needs else None)


def test_first_use_picks_the_best_runnable(tmp_path):
    code = "import libsha; print(libsha.dispatch.implementation())"
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                            env={k: v for k, v in os.environ.items() if k != "LIBSHA_IMPL"})
    assert result.stdout.strip() == best_of(SHANI_AVX512, SHANI_4WAY, SHANI, AVX512, AVX2_1WAY, AVX2, SSE4, ARM, "standard")


@pytest.mark.parametrize("name", sorted(RUNNABLE))
def test_select_and_using(name):
    libsha.dispatch.select(name)
    assert libsha.dispatch.implementation() == name
    with libsha.dispatch.using("standard"):
        assert libsha.dispatch.implementation() == "standard"
    assert libsha.dispatch.implementation() == name


def test_using_restores_after_an_exception():
    before = libsha.dispatch.implementation()
    with pytest.raises(KeyError):
        with libsha.dispatch.using("standard"):
            raise KeyError("boom")
    assert libsha.dispatch.implementation() == before


@pytest.mark.parametrize("bad", ["", "nope", "SSE4", "standard ", "x86_shani", "standard\0"])
def test_select_unknown_names(bad):
    before = libsha.dispatch.implementation()
    with pytest.raises(ValueError, match="unknown implementation|NUL"):
        libsha.dispatch.select(bad)
    assert libsha.dispatch.implementation() == before


def test_select_rejects_non_strings():
    with pytest.raises(TypeError):
        libsha.dispatch.select(b"standard")


def test_select_c_return_codes():
    lib = _native.lib()
    assert lib.libsha_select(b"standard") == _errors.OK
    assert lib.libsha_select(b"no such thing") == _errors.ERR_UNKNOWN_IMPL
    assert lib.libsha_select(None) == _errors.ERR_NULL


@pytest.mark.parametrize("name, old", rows.old_names() or [pytest.param("", "", marks=pytest.mark.skip(
    reason="no row has an old name (or registry.c is not here to say)"))])
def test_an_old_name_selects_the_row_it_became(name, old):
    lib = _native.lib()
    assert old not in rows.names()
    assert lib.libsha_select(old.encode()) == lib.libsha_select(name.encode())  # OK, or not runnable here
    if lib.libsha_select(old.encode()) == _errors.OK:
        assert libsha.dispatch.implementation() == name


def run_with_env(tmp_path, value, code="import libsha; print(libsha.dispatch.implementation())"):
    env = dict(os.environ, LIBSHA_IMPL=value)
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)


@pytest.mark.parametrize(
    "value, candidates",
    [
        ("standard", ["standard"]),
        ("sse4", [SSE4, "standard"]),
        ("sse4,avx2", [AVX2_1WAY, AVX2, SSE4, "standard"]),
        ("avx2", [AVX2_1WAY, AVX2, SSE4, "standard"]),
        ("shani", [SHANI, ARM, SSE4, "standard"]),
        ("standard,sse4,avx2,shani", [SHANI, AVX2_1WAY, AVX2, SSE4, ARM, "standard"]),
        # avx512 brings the AVX2 base its row builds on, never SHA-NI.
        ("avx512", [AVX512, AVX2_1WAY, AVX2, SSE4, "standard"]),
        ("shani,avx512", [SHANI_AVX512, SHANI_4WAY, SHANI, AVX512, AVX2_1WAY, AVX2, SSE4, ARM, "standard"]),
    ],
)
def test_libsha_impl_restricts_the_automatic_choice(tmp_path, value, candidates):
    result = run_with_env(tmp_path, value, "import libsha; print(libsha.dispatch.implementation(), libsha.dispatch.autodetect())")
    assert result.returncode == 0, result.stderr
    first, after_autodetect = result.stdout.split()[0], result.stdout.split()[-1]
    assert first == best_of(*candidates) == after_autodetect
    assert result.stderr == ""


HASH_ABC = "import libsha; print(libsha.sha256_digest(b'abc').hex())"


def offered_words(tmp_path, value, bad):
    """The words the error for LIBSHA_IMPL=value offers instead, once its form is checked."""
    result = run_with_env(tmp_path, value, HASH_ABC)
    assert result.returncode != 0 and result.stdout == ""
    error = result.stderr.strip().splitlines()[-1]
    assert error.startswith(f"libsha._errors.ConfigurationError: LIBSHA_IMPL={value!r}: {bad!r}")
    assert "dispatch.select" in error and "libsha hashes with 'standard'" not in result.stderr  # not C's line
    return error.split(" is not one of ", 1)[1].split(" (", 1)[0].split(", ")


@pytest.mark.parametrize("value, bad", [("bogus", "bogus"), ("sse4,,avx2", ""), ("sse4;avx2", "sse4;avx2"),
                                        ("SSE4", "SSE4"), (" sse4", " sse4"), ("sse4,", "")])
def test_invalid_libsha_impl_is_reported(tmp_path, value, bad):
    assert "standard" in offered_words(tmp_path, value, bad)


def test_every_word_the_error_offers_is_taken(tmp_path):
    # The list is the library's, not a copy, and the same whatever the bad value: one value's is tried.
    for word in offered_words(tmp_path, "bogus", "bogus"):
        assert run_with_env(tmp_path, word, HASH_ABC).returncode == 0, word


def test_an_invalid_libsha_impl_leaves_looking_and_choosing_by_name(tmp_path):
    code = textwrap.dedent("""
        import libsha
        from libsha import dispatch
        names = [i.name for i in dispatch.implementations()]
        assert "standard" in names and dispatch.cpu_features() is not None and libsha.library_version()
        assert dispatch.decide_x86("GenuineIntel", (0, 0, 0, 0)).implementation == "standard"
        def refused(call):
            try:
                call()
            except libsha.ConfigurationError as exc:
                return "bogus" in str(exc)
            return False
        assert refused(lambda: libsha.sha256_digest(b"abc")) and refused(dispatch.implementation)
        assert refused(lambda: libsha.sha256(b"abc").digest()) and refused(lambda: libsha.hmac_sha256(b"k", b"m"))
        assert refused(dispatch.lanes) and refused(dispatch.autodetect)
        with dispatch.using("standard"):
            assert libsha.sha256_digest(b"abc").hex().startswith("ba7816bf")
            assert dispatch.implementation() == "standard"
        assert refused(lambda: libsha.sha256_digest(b"abc"))  # back to no choice by name
        dispatch.select(names[0] if dispatch.implementations()[0].runnable else "standard")
        assert libsha.sha256_digest(b"abc").hex().startswith("ba7816bf") and libsha.sha256(b"x" * 5000).digest()
        assert refused(dispatch.autodetect)  # an automatic choice, still refused
        print("ok")
    """)
    result = run_with_env(tmp_path, "bogus", code)
    assert result.returncode == 0 and result.stdout == "ok\n", result.stderr
    assert result.stderr == ""  # C never made the automatic choice, so never printed its line


@pytest.mark.parametrize("value, ok", [(b"", True), (b"standard", True), (b"sse4,avx2,shani,avx512", True),
                                       (b"bogus", False), (b"sse4,", False), (b"a\nb", False), (b"x" * 300, False)])
def test_config_check_in_c(value, ok):
    lib = _native.loaded()
    message = ctypes.create_string_buffer(256)
    code = lib.libsha_config_check(value, message, len(message))
    assert (code == _errors.OK) == ok
    if ok:
        assert message.value == b""
    else:
        assert code == _errors.ERR_ARGUMENT and message.value.startswith(b"LIBSHA_IMPL='")
        assert b"\n" not in message.value and len(message.value) < 256  # one line, cut to the buffer
    assert lib.libsha_config_check(value, None, 0) == code  # no message wanted
    assert lib.libsha_config_check(value, None, 5) == _errors.ERR_NULL
    small = ctypes.create_string_buffer(8)
    assert lib.libsha_config_check(value, small, len(small)) == code and len(small.value) < 8


def test_invalid_libsha_impl_from_c_falls_back_to_standard_and_says_so(tmp_path):
    # A C caller cannot get an exception: it gets 'standard', a line on stderr, and libsha_config_error().
    code = (
        "import ctypes, libsha._native as n; lib = n.load();"
        "print(lib.libsha_implementation().decode()); print(lib.libsha_config_error() is not None)"
    )
    result = run_with_env(tmp_path, "bogus", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["standard", "True"]
    assert result.stderr.count("LIBSHA_IMPL='bogus'") == 1


def test_switching_while_hashing_never_gives_a_wrong_digest(rng):
    messages = [rng.randbytes(n) for n in (0, 31, 64, 100, 1000, 5000)]
    expected = [hashlib.sha256(m).digest() for m in messages]
    blobs = rng.randbytes(64 * 37)
    expected_d64 = sha256d64_by_hashlib(blobs)
    names = sorted(RUNNABLE)
    stop = threading.Event()
    wrong, done, seen = [], [0], set()

    def hasher():
        while not stop.is_set():
            seen.add(libsha.dispatch.implementation())  # which rows the hashing actually ran under
            for m, e in zip(messages, expected):
                h = libsha.sha256()
                h.update(m[:7])
                h.update(m[7:])
                if libsha.sha256_digest(m) != e or h.digest() != e:
                    wrong.append(len(m))
            if libsha.sha256d64(blobs) != expected_d64:
                wrong.append("d64")
            done[0] += 1

    threads = [threading.Thread(target=hasher) for _ in range(3)]
    for t in threads:
        t.start()
    lib = _native.lib()
    rounds_before, i = done[0], 0
    # At least 5,000 switches, and on until the hashers finished 3 rounds meanwhile.
    while (i < 5000 or done[0] - rounds_before < 3) and i < 2_000_000:
        assert lib.libsha_select(names[i % len(names)].encode()) == 0
        if i % 7 == 0:
            lib.libsha_autodetect(libsha.dispatch.USE_ALL)
        i += 1
    rounds_during = done[0] - rounds_before
    stop.set()
    for t in threads:
        t.join()
    assert wrong == []
    # The switching overlapped the hashing, and the hashers ran under more than one row.
    assert rounds_during >= 3, f"{i} switches, {rounds_during} rounds of hashing meanwhile"
    assert len(seen) >= min(2, len(names)), seen
