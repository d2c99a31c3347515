"""shabench's batch peers (isa-l_crypto and IPsec-MB managers, hashtree's kernels, by name) and the C loop that times them,
libsha_internal_bench_peer_many: the same feedback as libsha_internal_bench_many, digests checked before any timing,
and a peer that is absent left out with the reason."""

import ctypes
import os
import shutil
import subprocess
from array import array

import pytest

import libsha
from libsha import _errors, _native
from shabench import batch_peers, internal
from shabench.batch_peers import (HASHTREE_ENV, HASHTREE_KERNELS, IPSEC_MANAGERS, ISAL_ENV, PeerUnavailable,
                                  batch_peer_benchmarks)
from shabench.batches import Batch
from support.paths import ROOT

bench = internal.lib()
PEER_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                           ctypes.c_size_t)


def batch(lengths, rng):
    data = rng.randbytes(sum(lengths))
    offsets = array("q", [0])
    for length in lengths:
        offsets.append(offsets[-1] + length)
    return ctypes.create_string_buffer(data, max(len(data), 1)), offsets


def python_peer(wrong=False):
    @PEER_FN
    def peer(state, out, data, offsets, n):
        ends = (ctypes.c_int64 * (n + 1)).from_address(offsets)
        for i in range(n):
            digest = libsha.sha256_digest(ctypes.string_at(data + ends[i], ends[i + 1] - ends[i]))
            ctypes.memmove(out + 32 * i, bytes(32) if wrong else digest, 32)
        return 0

    return peer


@pytest.mark.core
def test_the_peer_loop_gives_what_libshas_own_batch_loop_gives(rng):
    peer = python_peer()
    for lengths in ([0], [5], [31, 32, 33], [64] * 9, [rng.randrange(0, 300) for _ in range(17)]):
        ours, offsets = batch(lengths, rng)
        theirs = ctypes.create_string_buffer(ours.raw, len(ours.raw))
        out_ours, out_theirs = (ctypes.create_string_buffer(32 * len(lengths)) for _ in range(2))
        address = offsets.buffer_info()[0]
        assert bench.libsha_internal_bench_many(b"standard", out_ours, ours, address, len(lengths), 0, internal.FROM_NOTHING,
                                                None, 0, 3) == _errors.OK
        assert bench.libsha_internal_bench_peer_many(ctypes.cast(peer, ctypes.c_void_p), None, out_theirs, theirs, address,
                                          len(lengths), 3) == _errors.OK
        assert theirs.raw == ours.raw and out_theirs.raw == out_ours.raw, lengths


@pytest.mark.core
def test_the_peer_loop_refuses_null_and_reports_a_failing_peer(rng):
    data, offsets = batch([10, 20], rng)
    out = ctypes.create_string_buffer(64)
    address = offsets.buffer_info()[0]
    fn = ctypes.cast(python_peer(), ctypes.c_void_p)
    for args in ((None, None, out, data, address), (fn, None, None, data, address), (fn, None, out, None, address),
                 (fn, None, out, data, None)):
        assert bench.libsha_internal_bench_peer_many(*args, 2, 1) == _errors.ERR_NULL

    @PEER_FN
    def failing(state, out, data, offsets, n):
        return 1

    assert bench.libsha_internal_bench_peer_many(ctypes.cast(failing, ctypes.c_void_p), None, out, data, address, 2, 1) \
        == _errors.ERR_ARGUMENT


@pytest.mark.core
def test_a_peer_whose_digests_are_wrong_is_never_timed(rng):
    class FakeLib:
        def __init__(self, fn):
            self.peer_many = fn

    fake = FakeLib(python_peer(wrong=True))
    for batch in (Batch("A", 7, 100), Batch("MIXED", 40)):
        make = batch_peers._make_run(fake, lambda manager: 1, "fake", batch)
        with pytest.raises(RuntimeError, match="disagrees with libsha"):
            make()
        good = batch_peers._make_run(FakeLib(python_peer()), lambda manager: 1, "fake", batch)()
        good(2)  # and a right one runs


@pytest.mark.core
def test_isa_l_without_its_prefix_is_left_out_saying_how_to_build_it(monkeypatch):
    monkeypatch.delenv(ISAL_ENV, raising=False)
    monkeypatch.setattr(batch_peers, "PEERS", {"isa-l_crypto": batch_peers.PEERS["isa-l_crypto"]})
    monkeypatch.setattr(batch_peers, "_on_x86_64", lambda: True)
    batch_peers._isal.cache_clear()
    rows = batch_peer_benchmarks([Batch("SHA256_MANY_7x100b", 7, 100)], libsha.dispatch.cpu_features())
    assert rows and all("tools/build_isal_crypto.sh" in r.left_out for r in rows)
    monkeypatch.setenv(ISAL_ENV, "/nonexistent")
    batch_peers._isal.cache_clear()
    with pytest.raises(PeerUnavailable, match="sha256_mb.h"):
        batch_peers._isal()
    batch_peers._isal.cache_clear()


@pytest.mark.core
def test_hashtree_has_rows_for_64_byte_batches_alone_and_without_its_prefix_says_how_to_build_it(monkeypatch):
    monkeypatch.delenv(HASHTREE_ENV, raising=False)
    monkeypatch.setattr(batch_peers, "PEERS", {"hashtree": batch_peers.PEERS["hashtree"]})
    monkeypatch.setattr(batch_peers, "_on_x86_64", lambda: True)
    batch_peers._hashtree.cache_clear()
    batches = [Batch("SHA256_MANY_7x100b", 7, 100), Batch("SHA256_MANY_9x64b", 9, 64), Batch("MIXED", 5)]
    rows = batch_peer_benchmarks(batches, libsha.dispatch.cpu_features())
    assert {r.name for r in rows} == {"SHA256_MANY_9x64b"} and len(rows) == len(HASHTREE_KERNELS)
    assert all("tools/build_hashtree.sh" in r.left_out for r in rows)
    monkeypatch.setenv(HASHTREE_ENV, "/nonexistent")
    batch_peers._hashtree.cache_clear()
    with pytest.raises(PeerUnavailable, match="hashtree.h"):
        batch_peers._hashtree()
    batch_peers._hashtree.cache_clear()


@pytest.mark.core
def test_off_x86_64_the_peers_are_left_out_saying_why(monkeypatch):
    monkeypatch.setattr(batch_peers.platform, "machine", lambda: "aarch64")
    clear = lambda: [load.cache_clear() for load, *_ in batch_peers.PEERS.values()]  # noqa: E731
    clear()
    rows = batch_peer_benchmarks([Batch("SHA256_MANY_7x100b", 7, 100), Batch("SHA256_MANY_7x64b", 7, 64)],
                                 ["sse4.1", "avx", "avx2", "avx512", "sha"])
    assert {r.runner.split()[0] for r in rows} == {"isa-l_crypto", "IPsec-MB", "hashtree"}
    assert all("x86-64 code; this is aarch64" in r.left_out for r in rows)
    clear()


@pytest.mark.core
@pytest.mark.skipif(shutil.which("bash") is None, reason="the build scripts are bash")
@pytest.mark.parametrize("script, tree", [("build_isal_crypto.sh", "an isa-l_crypto source tree"),
                                          ("build_hashtree.sh", "a hashtree source tree")])
def test_the_peer_build_scripts_refuse_bad_arguments_before_building(tmp_path, script, tree):
    path = ROOT / "tools" / script
    if not path.exists():
        pytest.skip("needs the source checkout")
    usage = subprocess.run(["bash", str(path)], capture_output=True, text=True)
    assert usage.returncode == 2 and "usage:" in usage.stderr
    inside = ROOT / "build" / "peer-prefix-test"
    refused = subprocess.run(["bash", str(path), str(tmp_path), str(inside)], capture_output=True, text=True)
    assert refused.returncode == 2 and "outside the checkout" in refused.stderr and not inside.exists()
    not_a_tree = subprocess.run(["bash", str(path), str(tmp_path), str(tmp_path / "prefix")], capture_output=True, text=True)
    assert not_a_tree.returncode == 2 and f"is not {tree}" in not_a_tree.stderr


def run_each(rows):
    """Each row this CPU runs, checked (make() raises where a digest differs) and timed twice; how many ran."""
    ran = 0
    for row in rows:
        if row.left_out:
            assert row.left_out.startswith("this CPU lacks"), row.left_out
            continue
        row.make_run()(2)
        ran += 1
    return ran


def installed(header):
    return any(os.path.exists(os.path.join(d, header)) for d in ("/usr/include", "/usr/local/include"))


@pytest.mark.external
@pytest.mark.build
@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="needs a C compiler")
@pytest.mark.skipif(not installed("intel-ipsec-mb.h"), reason="needs libipsec-mb-dev (.ci/run installs it)")
@pytest.mark.skipif(not batch_peers._on_x86_64(), reason="IPsec-MB's managers are x86-64 code")
def test_ipsec_mb_managers_hash_every_batch_right(tmp_path, monkeypatch):
    # Each manager this CPU runs, built and checked against libsha, on batches whose lengths cross its
    # lanes' block boundaries, and on one of mixed lengths (0..2048, empty messages among them).
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    batch_peers._ipsec.cache_clear()
    batches = [Batch("A", 37, 65), Batch("B", 100, 1), Batch("C", 16, 1000), Batch("MIXED", 50)]
    rows = [r for r in batch_peer_benchmarks(batches, libsha.dispatch.cpu_features()) if r.runner.startswith("IPsec-MB")]
    assert len(rows) == len(batches) * len(IPSEC_MANAGERS)
    assert run_each(rows) >= 3, "the sse manager runs on every x86-64 CPU with SSE4.1"
    batch_peers._ipsec.cache_clear()


@pytest.mark.external
@pytest.mark.build
@pytest.mark.skipif(not os.environ.get(HASHTREE_ENV),
                    reason=f"needs hashtree built by tools/build_hashtree.sh SOURCE PREFIX and {HASHTREE_ENV}=PREFIX")
@pytest.mark.skipif(not batch_peers._on_x86_64(), reason="hashtree's kernels named here are x86-64 code")
def test_hashtree_kernels_hash_every_64_byte_batch_right(tmp_path, monkeypatch):
    # Each kernel this CPU runs, built and checked against libsha: counts that fill no kernel's lanes
    # and leave every remainder.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    batch_peers._hashtree.cache_clear()
    batches = [Batch(f"B{n}", n, 64) for n in (1, 2, 3, 15, 17, 33)]
    rows = [r for r in batch_peer_benchmarks(batches, libsha.dispatch.cpu_features()) if r.runner.startswith("hashtree")]
    assert len(rows) == len(batches) * len(HASHTREE_KERNELS)
    assert run_each(rows) >= len(batches), "the avx_x4 kernel runs on every x86-64 CPU with AVX"
    batch_peers._hashtree.cache_clear()
