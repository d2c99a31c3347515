import pytest

import libsha


def runnable_implementations():
    return [impl.name for impl in libsha.implementations() if impl.runnable]


@pytest.fixture(params=runnable_implementations())
def implementation(request):
    """Runs the test once per implementation this CPU can run, with it active."""
    name = request.param
    previous = libsha.implementation()
    # The mask that selects exactly this implementation; only 'standard' exists so far.
    assert name == "standard", f"no way to select {name!r} yet"
    assert libsha.autodetect(libsha.USE_STANDARD) == name
    yield name
    libsha.autodetect(libsha.USE_ALL)
    assert libsha.implementation() == previous
