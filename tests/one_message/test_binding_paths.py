"""The binding's two paths: the accelerator (libsha/_accel.c: C methods over the library it opens
itself) where it loads, and ctypes everywhere else. Every `binding` test runs on each in this
process (tests/support/binding.py); here the paths are chosen as a user chooses them, by
LIBSHA_BINDING in a new process, and held against each other."""

import hashlib
import hmac
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import libsha
from support.binding import LOADED, ctypes_internals

ACCELERATED = LOADED == "accelerated"


def test_the_accelerator_says_which_build_runs():
    build = libsha.dispatch.binding(build=True)
    if not ACCELERATED:
        assert build == "ctypes"
        return
    import sysconfig
    from libsha import _accel

    if _accel.BUILD == "abi3":
        assert build == "accelerated (abi3)" and not sysconfig.get_config_var("Py_GIL_DISABLED")
    else:
        free = "t" if sysconfig.get_config_var("Py_GIL_DISABLED") else ""
        assert build == f"accelerated (cp3{sys.version_info[1]}{free})", build


def on_path(binding, code, cwd):
    env = dict(os.environ, LIBSHA_BINDING=binding)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=600)


@pytest.mark.parametrize("binding", ["ctypes", "accelerated"])
def test_each_path_says_which_it_is_and_gives_the_same_answers(tmp_path, binding):
    if binding == "accelerated" and not ACCELERATED:
        pytest.skip("the accelerator does not load here (PyPy or pre-3.11 CPython, or a py3-none wheel)")
    code = """
        import hashlib, hmac, pickle, libsha
        assert libsha.dispatch.binding() == %r
        m = bytes(range(251)) * 40
        h = libsha.sha256(m[:100]); h.update(m[100:]); c = h.copy()
        assert h.digest() == c.digest() == libsha.sha256_digest(m) == hashlib.sha256(m).digest()
        assert hmac.new(b"k", m, libsha.sha256).digest() == hmac.new(b"k", m, "sha256").digest() == libsha.hmac_sha256(b"k", m)
        print(pickle.loads(pickle.dumps(h)).digest() == h.digest(), libsha.HMAC.from_state(libsha.HMAC(b"k").state()).name)
        try:
            pickle.dumps(libsha.HMAC(b"k"))
        except TypeError as exc:
            print(exc)
        try:
            class Sub(libsha.sha256):
                pass
        except TypeError as exc:
            print(exc)
        print(isinstance(h, libsha.sha256), libsha.sha256.__module__, h.name, h.digest_size, h.block_size, libsha.HMAC(b"k").name)
    """ % binding
    result = on_path(binding, code, tmp_path)
    assert result.returncode == 0, result.stderr
    # What a user sees is the same on both paths.
    assert result.stdout.splitlines() == ["True hmac-sha256",
                                          "cannot pickle 'HMAC' object: its state is as good as the key (state() "
                                          "gives it, where that is meant)",
                                          "type 'libsha.sha256' is not an acceptable base type",
                                          "True libsha sha256 32 64 hmac-sha256"]


def test_an_invalid_libsha_binding_is_refused_with_the_valid_values(tmp_path):
    result = on_path("fast", "import libsha; libsha.sha256_digest(b'')", tmp_path)
    assert result.returncode != 0 and "LIBSHA_BINDING='fast'" in result.stderr and "'ctypes'" in result.stderr


@pytest.mark.skipif(ACCELERATED, reason="the accelerator loads here")
def test_asking_for_the_accelerator_where_it_does_not_load_says_why(tmp_path):
    result = on_path("accelerated", "import libsha; libsha.sha256_digest(b'')", tmp_path)
    assert result.returncode != 0 and "LIBSHA_BINDING=accelerated" in result.stderr


@pytest.mark.skipif(not ACCELERATED, reason="the accelerator does not load here")
def test_the_accelerator_holds_no_sha256_of_its_own():
    # It calls the library ctypes loads too (the same file, one copy): the dispatcher governs both.
    from libsha import _accel

    data = Path(_accel.__file__).read_bytes()
    assert bytes.fromhex("982f8a4291443771") not in data and bytes.fromhex("428a2f9871374491") not in data
    assert b"libsha_sha256_transform" not in data
    with libsha.dispatch.using("standard"):
        assert libsha.sha256(b"abc").hexdigest() == hashlib.sha256(b"abc").hexdigest()
    assert set(_accel.ENTRY_POINTS) <= set(libsha._signatures.SIGNATURES)  # libsha.h's functions, nothing else


@pytest.mark.skipif(not ACCELERATED, reason="the accelerator does not load here")
def test_a_million_calls_of_each_method_hold_no_memory():
    # A reference the C code forgot to drop keeps an object alive per call: a million calls would
    # leave a million blocks allocated.
    data, key = b"x" * 100, b"k" * 20
    h, mac = libsha.sha256(data), libsha.HMAC(key, data)
    calls = [lambda: libsha.sha256_digest(data), lambda: libsha.sha256_hexdigest(data),
             lambda: libsha.hmac_sha256(key, data), lambda: libsha.sha256(data), lambda: h.update(data),
             h.digest, h.hexdigest, h.copy, lambda: mac.update(data), mac.digest, mac.hexdigest, mac.copy,
             lambda: libsha.HMAC(key), lambda: libsha.update_many([h], [data])]
    for call in calls:
        for _ in range(1000):  # caches and free lists settle first
            call()
        before, refs = sys.getallocatedblocks(), sys.getrefcount(data)
        for _ in range(1_000_000 // len(calls)):
            call()
        assert sys.getallocatedblocks() - before < 100, call
        assert sys.getrefcount(data) == refs, call
    bad = memoryview(b"abcd")[::2]
    before = sys.getallocatedblocks()
    for _ in range(20_000):  # the error paths too
        for call in (lambda: libsha.sha256_digest(bad), lambda: h.update("str"), lambda: libsha.HMAC(3)):
            try:
                call()
            except (TypeError, ValueError):
                pass
    assert sys.getallocatedblocks() - before < 100


def test_pickling_made_and_refused_alike_on_this_path():
    h = libsha.sha256(b"abc")
    assert pickle.loads(pickle.dumps(h)).digest() == hashlib.sha256(b"abc").digest()
    with pytest.raises(TypeError, match="cannot pickle 'HMAC' object: its state is as good as the key"):
        pickle.dumps(libsha.HMAC(b"k"))
    assert h.copy().digest() == hashlib.sha256(b"abc").digest()
    assert hmac.new(b"k", b"m", libsha.sha256).digest() == hmac.digest(b"k", b"m", "sha256")


@pytest.mark.parametrize("binding", ["ctypes", "accelerated"])
def test_objects_alive_at_exit_leave_no_traceback(tmp_path, binding):
    # Module globals and a cycle the collector reaches last: freed while the interpreter shuts down,
    # when the binding's own module globals may be gone already.
    if binding == "accelerated" and not ACCELERATED:
        pytest.skip("the accelerator does not load here")
    (tmp_path / "holder.py").write_text(textwrap.dedent("""
        import libsha
        h = libsha.sha256(b"x" * 100)
        h.update(b"y" * 5000)
        m = libsha.HMAC(b"key", b"msg")
        m.update(b"more")
        cycle = [h, m]
        cycle.append(cycle)
    """))
    result = on_path(binding, "import holder, libsha; print(libsha.dispatch.binding())", tmp_path)
    assert result.returncode == 0 and result.stdout.strip() == binding and result.stderr == "", result.stderr


@ctypes_internals
@pytest.mark.binding
def test_the_ctypes_objects_wipe_without_their_module_globals(monkeypatch):
    # At exit CPython may clear a module's globals before the objects it made are freed; __del__
    # must not look them up then (3.13 printed "'NoneType' object has no attribute 'wipe'").
    from libsha._one import sha256 as _hash
    from libsha._one import hmac as _hmac

    h, mac = libsha.sha256(), libsha.HMAC(b"key", b"msg")
    h.update(bytes(5000))  # long enough for a C context
    monkeypatch.setattr(_hash, "_native", None)
    monkeypatch.setattr(_hmac, "_native", None)
    h.__del__()
    mac.__del__()
    assert bytes(h._ctx) == bytes(len(h._ctx)) and bytes(mac._ctx) == bytes(len(mac._ctx))  # wiped
