"""The packages' shape: no import cycle among the modules of libsha, libsha.oracle, libsha.sum or shabench (each
module's imports of its siblings, at any depth in the file, lazy ones included), and libsha's lazily
imported names, its __all__ and the names type checkers see are one list."""

import ast
from pathlib import Path

import pytest

import libsha

from support.paths import ROOT

PACKAGES = ["libsha", "libsha/oracle", "libsha/sum", "shabench"]


def sibling_imports(folder):
    """{module: the modules of the same package it imports}, from the source."""
    modules = {p.stem: p for p in (ROOT / folder).glob("*.py")}
    dotted = folder.replace("/", ".")
    graph = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1:
                    found |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
                elif node.level == 0 and node.module and node.module.startswith(dotted + "."):
                    found.add(node.module[len(dotted) + 1 :].split(".")[0])
        graph[name] = found & set(modules) - {name}
    return graph


def cycles(graph):
    """Each module that can reach itself, with the path that does."""
    found = {}
    for start in graph:
        stack = [(start, [start])]
        while stack and start not in found:
            node, path = stack.pop()
            for nxt in sorted(graph[node]):
                if nxt == start:
                    found[start] = path + [start]
                elif nxt not in path:
                    stack.append((nxt, path + [nxt]))
    return found


@pytest.mark.parametrize("folder", PACKAGES)
def test_no_import_cycle(folder):
    assert cycles(sibling_imports(folder)) == {}


def test_a_cycle_is_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})["a"] == ["a", "b", "c", "a"]
    assert cycles({"a": {"b"}, "b": set()}) == {}


def test_all_is_every_lazy_name_and_what_type_checkers_see():
    source = (ROOT / "libsha" / "__init__.py").read_text()
    checked = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom):
                    checked |= {a.asname or a.name for a in inner.names}
                elif isinstance(inner, ast.Assign):
                    checked |= {t.id for t in inner.targets}
    assert set(libsha.__all__) == set(libsha._HOMES) == checked
    assert len(libsha.__all__) == len(set(libsha.__all__))
    for name in libsha.__all__:
        home = libsha._HOMES[name]
        module = __import__(f"libsha.{home or name}", fromlist=["_"])
        assert getattr(libsha, name) is (module if home is None else getattr(module, name)), name


def test_the_public_namespace_is_the_table():
    # Run in a fresh interpreter: what dir() shows before and after every lazy name is loaded.
    import subprocess
    import sys

    code = ("import libsha; before = {n for n in dir(libsha) if not n.startswith('_')}; "
            "[getattr(libsha, n) for n in libsha.__all__]; "
            "after = {n for n in dir(libsha) if not n.startswith('_')}; "
            "assert before == after == set(libsha.__all__), (before ^ set(libsha.__all__), after ^ set(libsha.__all__))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT.parent)
    assert result.returncode == 0, result.stderr
    import libsha.dispatch

    assert {"select", "using", "autodetect", "implementation", "implementations", "Implementation", "cpu_features",
            "CPU_FEATURES", "USE_ALL", "USE_STANDARD", "build_type", "cpu_tuning", "CPU_TUNING", "cpu_model",
            "cpu_models", "implementation_for", "decide_x86", "Decision"} <= set(dir(libsha.dispatch))


def test_dispatch_shows_its_api_and_no_more():
    import libsha.dispatch

    public = set(libsha.dispatch.__all__)
    assert set(dir(libsha.dispatch)) == public
    assert not {"check", "ctypes", "operator", "TYPE_CHECKING", "annotations"} & public
    assert all(hasattr(libsha.dispatch, name) for name in public)
    namespace = {}
    exec("from libsha.dispatch import *", namespace)
    assert set(namespace) - {"__builtins__"} == public
    page = (ROOT / "docs" / "python.md").read_text()
    assert [name for name in public if name not in page] == []  # each one documented


@pytest.mark.parametrize("argv", [["-c", "import libsha"], ["-m", "libsha.oracle", "--help"]])
def test_a_shadowing_checkout_says_so(argv):
    import subprocess
    import sys

    if Path(libsha.__file__).resolve().parent == ROOT / "libsha":  # (CI's venv is inside the checkout: not this)
        pytest.skip("libsha is installed editable from this checkout: its libsha/ is the package")
    result = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode != 0
    assert "the libsha/ folder of a source checkout, not from the installed package" in result.stderr
    assert "Run from another directory, or install the checkout editable" in result.stderr
