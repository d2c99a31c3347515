import pytest

import libsha


def runnable_implementations():
    return [impl.name for impl in libsha.implementations() if impl.runnable]


@pytest.fixture(params=runnable_implementations())
def implementation(request):
    """Runs the test once per implementation this CPU can run, with it active."""
    previous = libsha.implementation()
    with libsha.using(request.param):
        assert libsha.implementation() == request.param
        yield request.param
    assert libsha.implementation() == previous
