"""libsha.oracle's printed reproducers reproduce: the input placed as the failing case placed it (offset
past 64-byte alignment, flush against a PROT_NONE page), the candidate in a child process (a crash
fails the test, pytest lives on), one per distinct failure. Each is run here under pytest, against
the wrong build (it must fail) and against the correct one (it must pass)."""

import subprocess
import sys

import pytest

from support.oracle import oracle_gallery_build as build
from support.oracle import oracle_smallest_failure as smallest
from support.oracle import run_oracle as oracle
from libsha.oracle.cli import main

pytestmark = [pytest.mark.external]


def run_pytest(tmp_path, source, name):
    path = tmp_path / f"test_{name}.py"
    path.write_text(source)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)


def test_an_alignment_only_bug_is_reproduced_at_its_offset(tmp_path):
    wrong = build("BUG_ALIGN7")
    code, report = oracle(tmp_path, "--library", wrong, "--symbol", "g_sha256", "--suite", "alignment")
    case = smallest(report, "alignment")
    assert code == 1 and (case["length"], case["offset"], case["status"]) == (64, 7, "wrong"), case
    source = case["reproducer"]
    assert run_pytest(tmp_path, source, "wrong").returncode == 1
    assert run_pytest(tmp_path, source.replace(wrong, build()), "right").returncode == 0
    # Placed at alignment instead, the same call passes: the placement is what reproduces it.
    aligned = source.replace("* 64 + 7  # 7 bytes", "* 64 + 0  # 0 bytes")
    assert aligned != source and run_pytest(tmp_path, aligned, "aligned").returncode == 0


def test_a_guard_page_only_over_read_is_reproduced_as_a_failure_not_a_dead_pytest(tmp_path):
    wrong = build("BUG_OVERREAD")
    code, report = oracle(tmp_path, "--library", wrong, "--symbol", "g_sha256", "--suite", "guard")
    case = smallest(report, "guard")
    assert code == 1 and case["status"] == "crash" and case["guard"], case
    result = run_pytest(tmp_path, case["reproducer"], "wrong")
    assert result.returncode == 1 and "the candidate died (status -11)" in result.stdout, result.stdout
    assert run_pytest(tmp_path, case["reproducer"].replace(wrong, build()), "right").returncode == 0


def test_a_crash_reproducer_fails_without_killing_pytest(tmp_path):
    wrong = build("BUG_CRASH0")
    code, report = oracle(tmp_path, "--library", wrong, "--stream", "g_init,g_update,g_final", "--ctx-size", 128,
                          "--suite", "lengths")
    assert code == 0  # the stream never calls g_sha256; the one-shot below does
    code, report = oracle(tmp_path, "--library", wrong, "--symbol", "g_sha256", "--suite", "lengths")
    case = smallest(report, "lengths")
    assert code == 1 and case["status"] == "crash"
    result = run_pytest(tmp_path, case["reproducer"], "crash")
    assert result.returncode == 1 and "1 failed" in result.stdout


def test_a_streaming_reproducer_keeps_the_splits(tmp_path):
    wrong = build("BUG_SPLIT63")
    code, report = oracle(tmp_path, "--library", wrong, "--stream", "g_init,g_update,g_final", "--ctx-size", 128,
                          "--suite", "splits")
    case = smallest(report, "splits")
    assert code == 1 and (case["length"], case["splits"]) == (64, [63])
    assert run_pytest(tmp_path, case["reproducer"], "wrong").returncode == 1
    assert run_pytest(tmp_path, case["reproducer"].replace(wrong, build()), "right").returncode == 0


@pytest.mark.parametrize("kind, function", [("--d64", "g_d64"), ("--level", "g_level")])
def test_a_blob_reproducer_hashes_each_blob_as_its_kind_does(tmp_path, kind, function):
    # SHA256D64 hashes a blob twice, a Merkle level once: the right build passes its own kind's reproducer.
    wrong = build("BUG_SWAP")
    code, report = oracle(tmp_path, "--library", wrong, kind, function, "--suite", "blobs")
    case = smallest(report, "blobs")
    assert code == 1 and case["length"] == 256 and case["blobs"] == {"--d64": 2, "--level": 1}[kind], case
    assert run_pytest(tmp_path, case["reproducer"], "wrong").returncode == 1
    assert run_pytest(tmp_path, case["reproducer"].replace(wrong, build()), "right").returncode == 0


def test_one_reproducer_per_distinct_failure(capsys):
    # The empty message crashes it: lengths, alignment and guard all shrink to that one case.
    assert main(["--library", build("BUG_CRASH0"), "--symbol", "g_sha256", "--suite", "lengths", "--suite",
                 "alignment", "--suite", "guard", "--seed", "1"]) == 1
    out = capsys.readouterr().out
    assert out.count("reproduce with pytest:") == 1
    assert "lengths, alignment, guard: first failure" in out


def test_the_candidate_line_and_json_replay_the_whole_call(tmp_path):
    args = ["--library", build(), "--stream", "g_init,g_update,g_final", "--ctx-size", "128"]
    code, report = oracle(tmp_path, *args, "--suite", "lengths")
    assert report["candidate"] == " ".join(args) + " --init-args ctx --update-args ctx,data,len --final-args ctx,out"
