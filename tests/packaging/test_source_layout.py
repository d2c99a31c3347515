"""The C library's rooms, read from its source: each folder includes and calls only its own files and
the folders below it (docs/architecture.md's layout), each header declares what its own folder
defines, and no file depends on itself through others (a file depends on the files that define what it
calls: directly, or through an inline function of a header it includes)."""

import re

import pytest

from support.paths import ROOT

SRC = ROOT / "libsha" / "src"
INCLUDE = ROOT / "libsha" / "include"
# Bottom to top; a folder may use its own files and those of the rows below it, never a row above or
# another folder of its own row. "" is src/ itself (what every folder shares) and the public headers.
LAYERS = [{""}, {"kernels"}, {"dispatch"}, {"one_message"}, {"many"}, {"trees", "kdf"}, {"files"}, {"bench"}]
RANK = {folder: rank for rank, layer in enumerate(LAYERS) for folder in layer}

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DEFINITION = re.compile(r"^(?!static\b)(?:const\s+)?[A-Za-z_][\w \t\*]*?\b(libsha_\w+)\s*(?:\(([^;{]*)\)\s*\{|(?:\[[^\]]*\])?\s*(?:=|;))",
                         re.M)
_INLINE = re.compile(r"static\s+inline\b[^;{]*\{", re.S)


def shown(path):
    return str(path.relative_to(SRC)) if SRC in path.parents else str(path.relative_to(ROOT))


def folder_of(path):
    if path.parent == INCLUDE:
        return ""
    relative = path.relative_to(SRC)
    return relative.parts[0] if len(relative.parts) > 1 else ""


def sources():
    return sorted(SRC.rglob("*.[ch]")) + sorted(INCLUDE.glob("*.h"))


def text_of(path):
    return _COMMENT.sub(" ", path.read_text())


def includes(path):
    """The project's headers path includes (quoted includes found beside it, in src/ or in include/)."""
    found = []
    for name in re.findall(r'^\s*#\s*include\s+"([^"]+)"', path.read_text(), re.M):
        for base in (path.parent, SRC, INCLUDE):
            if (base / name).is_file():
                found.append((base / name).resolve())
                break
    return found


def definitions():
    """{name: the .c file that defines it} for every function or object with external linkage (not a
    declaration through a kernel's function type: `libsha_transform_f libsha_sse4_transform;`)."""
    defined = {}
    for path in SRC.rglob("*.c"):
        for match in _DEFINITION.finditer(text_of(path)):
            if not re.search(r"_f\s+" + match[1], match[0]):
                defined.setdefault(match[1], path.resolve())
    return defined


def inline_bodies(path):
    """The text of the header's static inline functions' bodies."""
    text = text_of(path)
    bodies = []
    for match in _INLINE.finditer(text):
        depth, i = 1, match.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        bodies.append(text[match.end():i])
    return " ".join(bodies)


def headers_reached(path, seen=None):
    seen = set() if seen is None else seen
    for header in includes(path):
        if header not in seen:
            seen.add(header)
            headers_reached(header, seen)
    return seen


def dependencies():
    """{.c file: the other .c files defining what it uses}: the names in its own text and in the inline
    functions of every header it reaches."""
    defined = definitions()
    graph = {}
    for path in (p.resolve() for p in SRC.rglob("*.c")):
        text = text_of(path) + " ".join(inline_bodies(h) for h in headers_reached(path))
        used = set(re.findall(r"\b(libsha_\w+)\b", text))
        graph[path] = {defined[name] for name in used if name in defined} - {path}
    return graph


def test_the_layers_name_every_folder():
    folders = {folder_of(p) for p in sources()}
    assert folders == set(RANK), f"folders of libsha/src not in LAYERS, or gone: {folders ^ set(RANK)}"


def allowed(user, used):
    return used == user or RANK[used] < RANK[user]


def test_no_folder_includes_a_folder_above_it_or_beside_it():
    wrong = [f"{shown(p)} includes {shown(h)}" for p in sources() for h in includes(p)
             if not allowed(folder_of(p), folder_of(h))]
    assert not wrong, "\n".join(wrong)


def test_no_folder_calls_a_folder_above_it_or_beside_it():
    wrong = [f"{shown(p)} uses {shown(d)}" for p, deps in dependencies().items() for d in deps
             if not allowed(folder_of(p), folder_of(d))]
    assert not wrong, "\n".join(wrong)


def test_each_private_header_declares_what_its_own_folder_defines():
    defined = definitions()
    wrong = []
    for header in SRC.rglob("*.h"):
        declared = set(re.findall(r"^[A-Za-z_][\w \t\*]*?\b(libsha_\w+)\s*\(", text_of(header), re.M))
        declared |= set(re.findall(r"^extern\s[^;]*?\b(libsha_\w+)\s*(?:\[\])?;", text_of(header), re.M))
        for name in sorted(declared):
            if name in defined and folder_of(defined[name]) != folder_of(header.resolve()):
                wrong.append(f"{shown(header)} declares {name}, defined in {shown(defined[name])}")
    assert not wrong, "\n".join(wrong)


def test_no_file_depends_on_itself():
    graph = dependencies()
    loops = []
    for start in graph:
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    loops.append(" -> ".join(shown(p) for p in path + [start]))
                    stack.clear()
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, path + [nxt]))
    assert not loops, "\n".join(sorted(loops))


@pytest.mark.parametrize("mutation", ["upward include", "circle"])
def test_the_checks_see_a_bad_layout(mutation, monkeypatch, tmp_path):
    # The same checks on a copy of src/ with one flaw put in: each must fail.
    import shutil

    copy = tmp_path / "src"
    shutil.copytree(SRC, copy)
    monkeypatch.setattr(__import__(__name__), "SRC", copy)
    if mutation == "upward include":
        path = copy / "one_message" / "hmac.c"
        path.write_text('#include "many/many.h"\n' + path.read_text())
        with pytest.raises(AssertionError, match="includes"):
            test_no_folder_includes_a_folder_above_it_or_beside_it()
    else:
        path = copy / "dispatch" / "selftest.c"
        path.write_text(path.read_text() + "\nvoid libsha_selftest_probe(void);\n"
                        "void libsha_selftest_probe(void) { (void)libsha_find(0, 0); }\n")
        with pytest.raises(AssertionError, match="selftest.c"):
            test_no_file_depends_on_itself()


# The Python package's rooms, bottom to top, the same way: each module imports only its own room and
# the rooms below it (lazy imports inside functions included). The switch between the binding's paths
# (_binding) sits above what both paths share and below every pipeline. The modules of the first row
# (the base) and of the last (the public face) may import each other; test_package_layout.py holds
# them free of cycles.
PYTHON_LAYERS = [
    {"_errors", "_header", "_signatures", "_elf", "_loader", "_native", "_views", "_buffers", "_cpus", "_checkout",
     "_threads", "_reads", "_accel"},
    {"_binding"},
    {"_one"},
    {"_many"},
    {"_trees", "_kdf"},
    {"_files"},
    {"__init__", "__main__", "dispatch", "ssz", "rfc6962", "bep52", "fsverity", "dmverity", "glacier", "ipfs",
     "filecoin", "cli", "sum", "tree_commands", "oracle", "reference"},
]
PYTHON_RANK = {room: rank for rank, layer in enumerate(PYTHON_LAYERS) for room in layer}
PACKAGE = ROOT / "libsha"


def room_of(module):
    """The room of a module named relative to the package ("_many.lists" -> "_many")."""
    return module.split(".")[0] or "__init__"


def python_imports():
    """(module file, the module it imports, relative to libsha) for every import of libsha's own modules."""
    import ast

    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        here = list(parts[:-1])  # the module's package, relative to libsha
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                    target = base + (node.module.split(".") if node.module else [])
                    names = [target + [alias.name] for alias in node.names] if not node.module else [target]
                elif node.module and (node.module == "libsha" or node.module.startswith("libsha.")):
                    names = [node.module.split(".")[1:] or ["__init__"]]
                else:
                    continue
            elif isinstance(node, ast.Import):
                names = [a.name.split(".")[1:] for a in node.names if a.name.startswith("libsha.")]
            else:
                continue
            for name in names:
                yield path, ".".join(name) or "__init__"


def test_no_python_module_imports_a_room_above_it_or_beside_it():
    rooms = {room_of(".".join(p.relative_to(PACKAGE).with_suffix("").parts)) for p in PACKAGE.rglob("*.py")}
    assert rooms <= set(PYTHON_RANK), f"rooms of libsha/ not in PYTHON_LAYERS: {rooms - set(PYTHON_RANK)}"
    wrong = []
    for path, imported in python_imports():
        user = room_of(".".join(path.relative_to(PACKAGE).with_suffix("").parts))
        used = room_of(imported)
        shared = PYTHON_RANK[used] == PYTHON_RANK[user] in (0, len(PYTHON_LAYERS) - 1)
        if used in PYTHON_RANK and used != user and PYTHON_RANK[used] >= PYTHON_RANK[user] and not shared:
            wrong.append(f"{path.relative_to(ROOT)} imports libsha.{imported}")
    assert not wrong, "\n".join(wrong)
