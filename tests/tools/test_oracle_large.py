"""libsha.oracle's large suite at its default limits, which follow the candidate's measured speed: a
correct candidate at 50 MB/s passes (minutes), a real hang is caught in bounded time, mbedTLS 2.28's
one-shot is caught with its wrong digest past 4 GiB, and a 32-bit length inside a stream's update is
caught by the one 2^32 + 1-byte update.

Each run is gigabytes: it starts in the background when collection ends (the `background` marker,
conftest.py) and its test waits for it, so the mostly idle minutes overlap the rest of the session."""

import json
import sys

import pytest

from support.background import BackgroundRun
from support.oracle import oracle_gallery_build, system_library

pytestmark = [pytest.mark.external, pytest.mark.slow]

GIB4 = (1 << 32) + 1


def oracle_argv(*args):
    return [sys.executable, "-m", "libsha.oracle", *map(str, args), "--suite", "large", "--seed", "1",
            "--json", "report.json"]


SLOW = BackgroundRun("slow-candidate", lambda: oracle_argv("--library", oracle_gallery_build("PACE_MBPS=50", f'PACE_LIBCRYPTO="{system_library("crypto")}"'),
                                         "--symbol", "g_sha256"))
HANG = BackgroundRun("hanging-candidate", lambda: oracle_argv("--library", oracle_gallery_build("BUG_HANG_LARGE"), "--symbol",
                                         "g_sha256", "--timeout", 2))
MBEDTLS = BackgroundRun("mbedtls-one-shot", lambda: oracle_argv("--library", system_library("mbedcrypto"), "--symbol", "mbedtls_sha256_ret",
                                            "--args", "data,len,out,0"))
UPDATE32 = BackgroundRun("update32-stream", lambda: oracle_argv("--library", oracle_gallery_build("BUG_UPDATE32"), "--stream",
                                             "g_init,g_update,g_final", "--ctx-size", 128))


def finished(run, timeout):
    code, out, err, folder = run.wait(timeout)
    report = json.loads((folder / "report.json").read_text()) if (folder / "report.json").exists() else None
    return code, out, err, report


def large(report):
    (suite,) = report["suites"]
    return suite


@pytest.mark.background(SLOW)
def test_a_correct_candidate_at_50_mb_per_s_passes_large():
    code, out, err, report = finished(SLOW, 1200)
    assert code == 0, out + err
    suite = large(report)
    assert suite["passed"] == 4 and suite["failed"] == 0
    # It really was slow: 2^32 + 1 bytes took far longer than the old fixed limit (10 s + 1 s per 200 MB).
    assert report["speed"].endswith("MB/s") and float(report["speed"].split()[0]) < 60, report["speed"]
    assert suite["seconds"] > 150
    assert "large: 5,368,709,120 bytes in one call; speed" in err  # progress, on stderr


@pytest.mark.background(HANG)
def test_a_real_hang_in_large_is_caught_in_bounded_time():
    code, out, err, report = finished(HANG, 600)
    assert code == 1, out + err
    case = large(report)["smallest_failure"]
    assert (case["length"], case["status"]) == ((1 << 29) + 1, "hang"), case
    limit = float(case["detail"].split("no answer in ")[1].split()[0])
    assert 2 <= limit <= 120, case["detail"]  # 5 times the measured time for 512 MiB, at least --timeout
    assert large(report)["seconds"] < limit + 60


@pytest.mark.background(MBEDTLS)
def test_mbedtls_one_shot_is_caught_past_4_gib_with_its_wrong_digest():
    code, out, err, report = finished(MBEDTLS, 900)
    assert code == 1, out + err
    case = large(report)["smallest_failure"]
    assert (case["length"], case["status"]) == (GIB4, "wrong"), case  # a wrong digest, not a hang
    assert case["input"] is None and case["recipe"] == f"bytes({GIB4})"
    assert case["actual"] != case["expected"] and len(case["actual"]) == 64


@pytest.mark.background(UPDATE32)
def test_a_32_bit_length_inside_update_is_caught_by_the_single_huge_update():
    code, out, err, report = finished(UPDATE32, 900)
    assert code == 1, out + err
    case = large(report)["smallest_failure"]
    assert (case["length"], case["splits"], case["status"]) == (GIB4, [], "wrong"), case
    assert "mmap.mmap(-1, length, flags=mmap.MAP_PRIVATE" in case["reproducer"]
    assert "cuts = [0, length]" in case["reproducer"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the peak from /proc/self/status")
def test_a_large_case_costs_no_memory(tmp_path):
    # Gigabytes of zeros are a private anonymous mapping read through the zero page: a shared one
    # (mmap's default) gets real pages as the candidate reads them.
    import subprocess

    from libsha import _native

    # The peak is the child's own memory's (VmHWM): getrusage's ru_maxrss survives exec, so a child of a
    # large pytest process would report the parent's size.
    script = f"""
from libsha.oracle.candidate import Loaded
from libsha.oracle.spec import Spec

answer = Loaded(Spec("symbol", {_native.lib()._name!r}, ("libsha_sha256",))).zeros(1 << 30, ())
peak = [line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:")][0]
print(answer.digest.hex(), peak)
"""
    # From an empty folder: a checkout's libsha/ (no native library, no reference) would shadow the installed one.
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert child.returncode == 0, child.stderr
    digest, peak_kib = child.stdout.split()
    assert digest == "49bc20df15e412a64472421e13fe86ff1c5165e18b2afccf160d4dc19fe68a14"  # 1 GiB of zeros
    assert int(peak_kib) < 200 * 1024, f"{peak_kib} KiB resident for 1 GiB of zeros"
