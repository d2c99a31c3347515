"""CPython's own hashlib tests (Lib/test/test_hashlib.py) with libsha.sha256 and libsha.new as the
sha256 constructors: the tests of a hash object's behaviour that do not name another algorithm.
(Left out: test_disallow_instantiation and test_readonly_types, about C types; libsha.sha256 is a
Python class, and hashlib.sha256 a function.)"""

import os
import unittest

import pytest

import libsha

pytestmark = [pytest.mark.core, pytest.mark.binding]

test_hashlib = pytest.importorskip("test.test_hashlib", reason="CPython's test package is not installed here")

# Each iterates the constructors, or checks sha256's vectors through them and hashlib.file_digest.
TESTS = ["test_hash_array", "test_hexdigest", "test_name_attribute", "test_large_update", "test_gil",
         "test_case_sha256_0", "test_case_sha256_1", "test_case_sha256_2", "test_case_sha256_3"]


def _by_name(data=None, **kwargs):
    return libsha.new("sha256", **kwargs) if data is None else libsha.new("sha256", data, **kwargs)


class LibshaSha256(test_hashlib.HashLibTestCase):
    __test__ = False  # run one test at a time below, not collected whole (most of it is other algorithms)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.constructors_to_test = {"sha256": {libsha.sha256, _by_name}}


@pytest.mark.parametrize("name", TESTS)
def test_cpython_hashlib_test_passes_with_libsha(name, tmp_path, monkeypatch):
    assert hasattr(test_hashlib.HashLibTestCase, name), f"CPython's suite has no {name} here"
    monkeypatch.chdir(tmp_path)  # check_file_digest writes its file in the current directory
    result = unittest.TestResult()
    LibshaSha256(name).run(result)
    problems = [text for _, text in result.errors + result.failures]
    assert result.testsRun == 1 and not problems and not result.skipped, "\n".join(problems) or result.skipped
    assert os.listdir(tmp_path) == []
