"""libsha.oracle on real SHA-256 implementations nobody here wrote, each called in its own shape with
--args and friends (no shim): C libraries from the system (.ci/run installs libsodium, nettle and
mbedTLS from Debian), programs, Python objects, and hashtree's Merkle level where it is built. Each
skips, saying why, where it is absent."""

import os
import shutil

import pytest

from support.oracle import run_oracle as oracle
from support.oracle import system_library as library
from shabench.batch_peers import HASHTREE_ENV

pytestmark = [pytest.mark.external]

QUICK = ["--suite", "lengths", "--suite", "alignment", "--suite", "guard"]
STREAM_QUICK = ["--suite", "lengths", "--suite", "random"]  # random cases come in up to four pieces


@pytest.mark.parametrize("name, args", [
    ("sodium", ["--symbol", "crypto_hash_sha256", "--args", "out,data,len"]),  # output first
    ("mbedcrypto", ["--symbol", "mbedtls_sha256_ret", "--args", "data,len,out,0"]),  # is224 = 0
    ("gcrypt", ["--symbol", "gcry_md_hash_buffer", "--args", "8,out,data,len"]),  # GCRY_MD_SHA256
    ("gnutls", ["--symbol", "gnutls_hash_fast", "--args", "6,data,len,out"]),  # GNUTLS_DIG_SHA256
    ("crypto", ["--symbol", "SHA256"]),  # OpenSSL: today's default shape
])
def test_a_real_one_shot_passes_in_its_own_shape(tmp_path, name, args):
    code, report = oracle(tmp_path, "--library", library(name), *args, *QUICK)
    assert code == 0 and report["passed"] and report["usage_check"] == "passed", report


@pytest.mark.parametrize("name, args", [
    ("nettle", ["--stream", "nettle_sha256_init,nettle_sha256_update,nettle_sha256_digest", "--ctx-size", 112,
                "--update-args", "ctx,len,data", "--final-args", "ctx,32,out"]),
    ("mbedcrypto", ["--stream", "mbedtls_sha256_starts_ret,mbedtls_sha256_update_ret,mbedtls_sha256_finish_ret",
                    "--ctx-size", 112, "--init-args", "ctx,0"]),
    ("crypto", ["--stream", "SHA256_Init,SHA256_Update,SHA256_Final", "--ctx-size", 112,
                "--final-args", "out,ctx"]),
])
def test_a_real_stream_passes_in_its_own_shape(tmp_path, name, args):
    code, report = oracle(tmp_path, "--library", library(name), *args, *STREAM_QUICK)
    assert code == 0 and report["passed"], report
    assert {s["name"]: s["passed"] for s in report["suites"]}["random"] > 0


@pytest.mark.parametrize("command", [
    "openssl dgst -sha256",  # SHA2-256(stdin)= HEX
    "sha256sum --tag",  # SHA256 (-) = HEX (GNU's is in test_oracle.py)
])
def test_a_real_command_passes_as_it_prints(tmp_path, command):
    if shutil.which(command.split()[0]) is None:
        pytest.skip(f"{command.split()[0]} is not installed")
    code, report = oracle(tmp_path, "--command", command, "--suite", "lengths")
    assert code == 0 and report["suites"][0]["passed"] == 1101


def test_a_command_with_its_digest_elsewhere_passes_with_a_regex(tmp_path):
    if shutil.which("sha256sum") is None:
        pytest.skip("sha256sum (coreutils) is not installed")
    command = "sh -c 'printf \"digest: \"; sha256sum'"
    code, report = oracle(tmp_path, "--command", command, "--digest-regex", "digest: ([0-9a-f]{64})",
                          "--suite", "lengths")
    assert code == 0 and report["candidate"].endswith("--digest-regex 'digest: ([0-9a-f]{64})'")


class Buffered:
    """A pure-Python hashlib-style class: keeps the pieces, hashes them at digest()."""

    def __init__(self):
        self.pieces = []

    def update(self, data):
        self.pieces.append(bytes(data))

    def digest(self):
        import hashlib

        return hashlib.sha256(b"".join(self.pieces)).digest()


def test_an_object_gets_the_splits_suite(tmp_path):
    code, report = oracle(tmp_path, "--object", "hashlib:sha256", "--suite", "splits")
    assert code == 0 and [s["passed"] for s in report["suites"]] == [51869], report


@pytest.mark.parametrize("factory, module", [
    ("libsha:sha256", None),
    ("test_oracle_real:Buffered", None),
    ("Crypto.Hash.SHA256:new", "Crypto"),  # pycryptodome
    ("cryptography.hazmat.primitives.hashes:Hash(SHA256())", "cryptography"),  # finalize(), an expression
])
def test_a_real_object_passes_as_it_is(tmp_path, factory, module):
    if module is not None:
        pytest.importorskip(module, reason=f"{module} is not installed (the 'oracle' extra brings it)")
    code, report = oracle(tmp_path, "--object", factory, "--suite", "lengths", "--suite", "random")
    assert code == 0 and report["passed"], report


@pytest.mark.skipif(not os.environ.get(HASHTREE_ENV),
                    reason=f"needs hashtree built by tools/build_hashtree.sh SOURCE PREFIX and {HASHTREE_ENV}=PREFIX")
def test_hashtree_passes_as_a_merkle_level(tmp_path):
    # OffchainLabs/hashtree's one call, hash(out, chunks, count): the oracle's --level shape as it is.
    path = os.path.join(os.environ[HASHTREE_ENV], "lib", "libhashtree.so")
    code, report = oracle(tmp_path, "--library", path, "--level", "hashtree_hash", "--suite", "blobs", "--suite", "random")
    assert code == 0 and report["passed"] and report["usage_check"] == "passed", report
