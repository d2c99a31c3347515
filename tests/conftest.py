"""The fixtures every test module may use, and the plugins' hooks. The shared helpers live in
support/, one module per kind: rows (the library's rows by their kernels), data, processes, builds
(shared CMake trees), bitcoin, oracle, background (runs started when collection ends) and markers
(what a test needs, enforced)."""

import os

import pytest

import libsha
from support import binding, rows
from support.background import (  # noqa: F401 (hooks)
    pytest_collection_finish,
    pytest_collection_modifyitems,
    pytest_configure,
    pytest_unconfigure,
)
from support.markers import pytest_runtest_protocol  # noqa: F401 (a hook)

pytest_plugins = ["pytester"]  # test_markers.py runs pytest on a module of its own


def pytest_generate_tests(metafunc):
    # Each binding test once on each path this interpreter has (support/binding.py).
    if metafunc.definition.get_closest_marker("binding") is not None:
        metafunc.parametrize("binding_path", binding.PATHS, indirect=True)


@pytest.fixture(autouse=True)
def binding_path(request, monkeypatch):
    """The binding path the test's calls take: its parameter for binding tests, else the loaded one."""
    path = getattr(request, "param", binding.LOADED)
    only = request.node.get_closest_marker("internals_of")
    if only is not None and only.args[0] != path:
        pytest.skip(f"the {only.args[0]} path's insides: this run is on the {path} path"
                    + ("" if only.args[0] in binding.PATHS else f" (this run's paths: {', '.join(binding.PATHS)})"))
    binding.use_path(path, monkeypatch)
    return path


def runnable_implementations():
    return [impl.name for impl in libsha.dispatch.implementations() if impl.runnable]


def _active(name):
    previous = libsha.dispatch.implementation()
    with libsha.dispatch.using(name):
        assert libsha.dispatch.implementation() == name
        yield name
    assert libsha.dispatch.implementation() == previous


# Each kernel is tested once (its first row, best first): the binding's tests of one-stream paths
# run on one row per one-way kernel, those of many messages, SHA256D64 and Merkle roots on one row
# per set of lane kernels; every row's NIST vectors, boundaries and sweeps are the C test's. The runs
# that check another interpreter, a sanitized build or an emulated wheel of the same sources (PyPy's,
# free-threaded CPython's, the ASan run's, the aarch64 wheel's) set LIBSHA_TEST_ROWS=active: their
# binding tests run on the row the library chose, as the kernels' sweeps over every row are the main
# run's and the C tests' (natively, under ASan, valgrind and qemu).
ENV_ROWS = "LIBSHA_TEST_ROWS"


def _rows_of(kernels_of):
    names = rows.first_per(runnable_implementations(), kernels_of)
    wanted = os.environ.get(ENV_ROWS, "")
    assert wanted in ("", "active"), f"{ENV_ROWS}={wanted!r}: 'active' or unset"
    return [libsha.dispatch.implementation()] if wanted == "active" else names


@pytest.fixture(params=_rows_of(rows.one_way))
def one_stream_row(request):
    """Runs the test once per one-stream kernel this CPU runs, on its first row, made active."""
    yield from _active(request.param)


@pytest.fixture(params=_rows_of(rows.lane_kernels))
def lanes_row(request):
    """Runs the test once per set of lane kernels this CPU runs, on its first row, made active."""
    yield from _active(request.param)


@pytest.fixture
def rng(request):
    """A seeded random.Random; the seed is printed so a failure can be replayed (LIBSHA_TEST_SEED)."""
    import os
    import random

    seed = int(os.environ.get("LIBSHA_TEST_SEED", random.randrange(1 << 32)))
    print(f"{request.node.name}: seed {seed} (LIBSHA_TEST_SEED={seed} replays it)")
    return random.Random(seed)
