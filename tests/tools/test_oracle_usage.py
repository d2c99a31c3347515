"""libsha.oracle's usage check: a candidate called in the wrong shape is exit status 2 with a hint that
names the mistake, never a finding against the candidate (exit 1). The mistakes are real ones, made
on real libraries; each skips where its library is absent."""

import shutil

import pytest

from support.oracle import oracle_gallery_build as build
from support.oracle import run_oracle as oracle
from support.oracle import system_library as library
from libsha.oracle.cli import main

pytestmark = [pytest.mark.external]


def usage_error(capsys, *args):
    """The oracle's stderr, after checking it exited 2 before any suite ran."""
    assert main([*map(str, args), "--suite", "lengths", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert "the usage check failed" in captured.err and "suite" not in captured.out
    return captured.err


def test_openssl_final_without_out_first_is_a_usage_error(capsys):
    err = usage_error(capsys, "--library", library("crypto"), "--stream", "SHA256_Init,SHA256_Update,SHA256_Final",
                      "--ctx-size", 112)
    assert "add --final-args out,ctx" in err


def test_a_context_smaller_than_the_real_one_is_a_usage_error(capsys):
    err = usage_error(capsys, "--library", library("crypto"), "--stream", "SHA256_Init,SHA256_Update,SHA256_Final",
                      "--ctx-size", 32, "--final-args", "out,ctx")
    assert "the context is larger than --ctx-size 32" in err and "at least --ctx-size 112" in err


def test_nettle_called_as_it_is_is_a_usage_error_that_names_its_shape(capsys):
    err = usage_error(capsys, "--library", library("nettle"), "--stream",
                      "nettle_sha256_init,nettle_sha256_update,nettle_sha256_digest", "--ctx-size", 112)
    assert "add --update-args ctx,len,data --final-args ctx,32,out" in err


def test_mbedtls_without_its_is224_flag_is_recognised_as_sha224(capsys):
    err = usage_error(capsys, "--library", library("mbedcrypto"), "--symbol", "mbedtls_sha256_ret")
    assert "computes SHA-224" in err and "--args data,len,out,0" in err


def test_libsodium_output_first_is_found(capsys):
    err = usage_error(capsys, "--library", library("sodium"), "--symbol", "crypto_hash_sha256")
    assert "add --args out,data,len" in err


def test_a_digest_in_the_wrong_byte_order_is_recognised(capsys):
    err = usage_error(capsys, "--library", build("BUG_OUT_LE"), "--symbol", "g_sha256")
    assert "32-bit words are little-endian" in err


def test_out_and_ctx_swapped_is_recognised_when_nothing_crashes(capsys):
    # The gallery's final writes the digest into whatever it is given as out: here, the context.
    err = usage_error(capsys, "--library", build(), "--stream", "g_init,g_update,g_final", "--ctx-size", 128,
                      "--final-args", "out,ctx")
    assert "add --final-args ctx,out" in err


def test_a_command_whose_digest_is_not_first_is_told_about_digest_regex(capsys):
    if shutil.which("sha256sum") is None:
        pytest.skip("sha256sum (coreutils) is not installed")
    err = usage_error(capsys, "--command", "sh -c 'printf \"digest: \"; sha256sum'")
    assert "at character 8" in err and "--digest-regex" in err


def test_a_command_that_prints_no_digest_shows_its_stderr(capsys):
    # As rhash --sha256 without '-': exit status 0, a complaint on stderr, nothing on stdout.
    err = usage_error(capsys, "--command", "sh -c 'echo no file given >&2'")
    assert "stderr: 'no file given'" in err and "does it read stdin?" in err


def test_one_probe_wrong_without_a_hint_runs_the_suites(tmp_path):
    # BUG_LEN_LE gets "" right and "abc" wrong: the shape works, so this is the candidate's bug (exit 1).
    code, report = oracle(tmp_path, "--library", build("BUG_LEN_LE"), "--symbol", "g_sha256", "--suite", "lengths")
    assert code == 1 and "'' right, 'abc' wrong digest" in report["usage_check"]
