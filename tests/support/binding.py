"""Which path the binding's calls take in this run, and the marks for tests of one path's insides.

Every test marked `binding` (pyproject.toml) runs on both paths: in the main run on the one that
loads here (the accelerator where it was built), and again on the ctypes path from
tests/one_message/test_binding_paths.py. A test of one path's internals says so with these marks.
"""

import pytest

import libsha

PATH = libsha.dispatch.binding()

ctypes_internals = pytest.mark.skipif(
    PATH != "ctypes", reason="the ctypes path's object internals: tests/one_message/test_binding_paths.py runs this on that path")
accelerator_internals = pytest.mark.skipif(PATH != "accelerated", reason="the accelerator's internals: it does not load here")
