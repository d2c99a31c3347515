"""libsha.oracle: correct candidates pass; a gallery of wrong ones (tests/data/oracle_gallery.c) is caught,
each shrunk to the right case. Real libraries: test_oracle_real.py; usage mistakes: test_oracle_usage.py;
reproducers: test_oracle_reproducers.py; the large suite's time limits: test_oracle_large.py."""

import hashlib
import shutil
import subprocess
import sys

import pytest

from support.oracle import oracle_gallery_build as build
from support.oracle import oracle_smallest_failure as smallest
from support.oracle import run_oracle as oracle
from libsha.oracle import suites
from libsha.oracle.cli import build_parser, main, suite_names

@pytest.mark.external
def test_the_correct_gallery_build_passes(tmp_path):
    code, report = oracle(tmp_path, "--library", build(), "--stream", "g_init,g_update,g_final", "--ctx-size",
                          128, "--suite", "lengths", "--suite", "splits", "--suite", "guard", "--suite", "alignment")
    assert code == 0 and report["passed"]


@pytest.mark.external
@pytest.mark.parametrize("bug, args, suite, length, extra", [
    ("BUG_PAD55", ["--symbol", "g_sha256"], "lengths", 56, {}),  # a 56-byte tail needs a second block
    ("BUG_LEN_LE", ["--symbol", "g_sha256"], "lengths", 1, {}),
    ("BUG_OVERREAD", ["--symbol", "g_sha256"], "guard", 0, {"status": "crash", "guard": True}),
    ("BUG_CRASH0", ["--symbol", "g_sha256"], "lengths", 0, {"status": "crash"}),
    ("BUG_HANG", ["--symbol", "g_sha256", "--timeout", "1"], "lengths", 77, {"status": "hang"}),
    ("BUG_SWAP", ["--d64", "g_d64"], "blobs", 256, {"blobs": 2, "d64": True}),
    ("BUG_SWAP", ["--level", "g_level"], "blobs", 256, {"blobs": 1, "d64": False}),
    ("BUG_LEN32", ["--symbol", "g_sha256"], "large", (1 << 29) + 1, {}),
    ("BUG_HUGE", ["--symbol", "g_sha256"], "large", (1 << 32) + 1, {}),
])
def test_each_wrong_build_is_caught_at_the_right_case(tmp_path, bug, args, suite, length, extra):
    code, report = oracle(tmp_path, "--library", build(bug), *args, "--suite", suite)
    assert code == 1 and not report["passed"]
    case = smallest(report, suite)
    assert case["length"] == length, case
    for key, value in extra.items():
        assert case[key] == value, case


def wrong_at_56(data):
    """A Python candidate with its padding bug where the length field no longer fits: 56 bytes."""
    return hashlib.sha256(data + b"\0" if len(data) % 64 == 56 else data).digest()


def test_a_wrong_python_callable_is_caught_with_a_reproducer(tmp_path, capsys):
    code, report = oracle(tmp_path, "--callable", "test_oracle:wrong_at_56", "--suite", "lengths")
    assert code == 1 and smallest(report, "lengths")["length"] == 56
    out = capsys.readouterr().out
    assert "from test_oracle import wrong_at_56" in out and "def test_sha256_case():" in out


@pytest.mark.parametrize("args", [
    ["--callable", "hashlib:sha256"],
    ["--callable", "libsha:sha256"],
])
def test_correct_python_candidates_pass(tmp_path, args):
    code, report = oracle(tmp_path, *args, "--suite", "lengths", "--suite", "random")
    assert code == 0 and report["passed"]


@pytest.mark.skipif(shutil.which("sha256sum") is None, reason="needs sha256sum (coreutils)")
def test_sha256sum_passes_as_a_command(tmp_path):
    code, report = oracle(tmp_path, "--command", "sha256sum", "--suite", "lengths")
    assert code == 0 and report["suites"][0]["passed"] == 1101


def libcrypto():
    import ctypes.util

    return ctypes.util.find_library("crypto")


@pytest.mark.external
@pytest.mark.skipif(libcrypto() is None, reason="needs OpenSSL's libcrypto")
def test_openssl_passes_as_a_symbol_and_as_a_stream(tmp_path):
    code, _ = oracle(tmp_path, "--library", libcrypto(), "--symbol", "SHA256", "--suite", "lengths", "--suite", "guard")
    assert code == 0
    code, _ = oracle(tmp_path, "--library", libcrypto(), "--stream", "SHA256_Init,SHA256_Update,SHA256_Final",
                     "--ctx-size", 112, "--final-args", "out,ctx", "--suite", "splits", "--suite", "lengths")
    assert code == 0


@pytest.mark.slow
def test_libsha_passes_every_default_suite(tmp_path):
    from libsha import _native

    library = _native.lib()._name
    code, report = oracle(tmp_path, "--library", library, "--stream",
                          "libsha_sha256_init,libsha_sha256_update,libsha_sha256_final", "--ctx-size",
                          _native.lib().libsha_sha256_ctx_size())
    assert code == 0, report
    assert {s["name"]: s["note"] for s in report["suites"]}["blobs"] == "needs a --d64 or --level candidate"
    code, report = oracle(tmp_path, "--library", library, "--d64", "libsha_sha256d64", "--suite", "blobs")
    assert code == 0
    code, report = oracle(tmp_path, "--library", library, "--level", "libsha_sha256_64", "--suite", "blobs",
                          "--suite", "random")
    assert code == 0, report
    code, report = oracle(tmp_path, "--library", library, "--symbol", "libsha_sha256", "--suite", "lengths",
                          "--suite", "alignment", "--suite", "guard")
    assert code == 0


@pytest.mark.parametrize("args, words", [
    ([], "name a candidate"),
    (["--symbol", "x"], "--symbol needs --library"),
    (["--library", "x.so", "--stream", "a,b"], "INIT,UPDATE,FINAL"),
    (["--library", "x.so", "--stream", "a,b,c"], "--ctx-size"),
    (["--callable", "nocolon"], "MODULE:FUNCTION"),
    (["--command", "x", "--library", "y"], "--library goes with"),
    (["--object", "hashlib"], "MODULE:FACTORY"),
    (["--library", "x.so", "--symbol", "f", "--args", "data,len"], "needs 'out' exactly once"),
    (["--library", "x.so", "--symbol", "f", "--args", "data,len,out,out"], "needs 'out' exactly once"),
    (["--library", "x.so", "--symbol", "f", "--args", "data,size,out"], "(not 'size')"),
    (["--library", "x.so", "--symbol", "f", "--args", "data,,len,out"], "each word is one of"),
    (["--library", "x.so", "--symbol", "f", "--init-args", "ctx"], "--init-args goes with --stream"),
    (["--library", "x.so", "--d64", "f", "--args", "out,data"], "'blocks' (64-byte blobs) or 'len'"),
    (["--library", "x.so", "--level", "f", "--args", "out,data,len,blocks"], "'blocks' (64-byte blobs) or 'len'"),
    (["--level", "f"], "--level needs --library PATH"),
    (["--library", "x.so", "--stream", "a,b,c", "--ctx-size", "8", "--update-args", "ctx,data"], "'len' exactly once"),
    (["--library", "x.so", "--stream", "a,b,c", "--ctx-size", "8", "--final-args", "out"], "'ctx' exactly once"),
    (["--command", "x", "--args", "data,len,out"], "go with a --library candidate"),
    (["--library", "x.so", "--symbol", "f", "--digest-regex", "x"], "--digest-regex goes with --command"),
    (["--command", "x", "--digest-regex", "("], "not a regular expression"),
    (["--library", "x.so", "--symbol", "f", "--ctx-size", "8"], "--ctx-size goes with --stream"),
])
def test_bad_usage_exits_2(capsys, args, words):
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2 and words in capsys.readouterr().err


@pytest.mark.parametrize("args, expected", [
    (["--suite", "lengths", "--large"], ["lengths", "large"]),  # --large used to be dropped beside --suite
    (["--large"], [*suites.DEFAULT, "large"]),
    (["--suite", "large", "--large"], ["large"]),
    (["--suite", "splits", "--suite", "nist", "--suite", "splits"], ["splits", "nist"]),
    ([], list(suites.DEFAULT)),
    (["--suite", "d64", "--suite", "blobs"], ["blobs"]),  # the blob suite's name before --level still works
])
def test_the_suites_named_and_large_are_all_run(args, expected):
    parsed = build_parser().parse_args(["--callable", "m:f", *args])
    assert suite_names(parsed) == expected


def test_a_candidate_that_cannot_load_exits_2(tmp_path, capsys):
    assert main(["--library", str(tmp_path / "missing.so"), "--symbol", "f"]) == 2
    assert "cannot load" in capsys.readouterr().err
    assert main(["--callable", "no_such_module_here:f"]) == 2
    assert "cannot import" in capsys.readouterr().err


def test_the_module_runs_as_a_command(tmp_path):
    result = subprocess.run([sys.executable, "-m", "libsha.oracle", "--callable", "hashlib:sha256", "--suite",
                             "lengths", "--seed", "3"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0 and "seed: 3" in result.stdout and "all cases passed" in result.stdout


def returns_an_int(data):
    return len(data)


def test_a_callable_returning_the_wrong_type_fails_the_usage_check(capsys):
    assert main(["--callable", "test_oracle:returns_an_int", "--suite", "lengths"]) == 2
    err = capsys.readouterr().err
    assert "the usage check failed" in err and "returned int 3, not 32 bytes" in err


def test_help_states_the_time_rule_and_the_shapes(capsys):
    from libsha.oracle.pace import RULE

    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert " ".join(RULE.split()) in out
    for words in ("--args out,data,len", "--update-args ctx,len,data --final-args ctx,32,out", "3.5 minutes at 50 MB/s"):
        assert words in out


def test_quick_takes_a_tenth_of_the_monte_carlo_checkpoints(tmp_path):
    code, report = oracle(tmp_path, "--callable", "hashlib:sha256", "--suite", "nist", "--quick")
    (nist,) = report["suites"]
    assert code == 0 and nist["note"] == "Monte Carlo: 10 of 100 checkpoints (--quick)"
    assert nist["passed"] == 129 + 10 * 1000  # the short and long messages, then 10 checkpoints of 1,000
