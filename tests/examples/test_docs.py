"""The README is a map: short, with every relative link in it and in docs/ (and the examples'
pages) leading to a file that exists and, with an anchor, to a heading of that file."""

import re

import pytest

from support.paths import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "examples").glob("*/README.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page):
    return {slug(line.lstrip("#")) for line in page.read_text().splitlines() if re.match(r"#{1,6} ", line)}


def relative_links(page):
    return [t for t in LINK.findall(page.read_text()) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    links = relative_links(page)
    for target in links:
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.exists(), f"{page.name}: {target} does not exist"
        if anchor:
            assert anchor in anchors(resolved), f"{page.name}: no heading '#{anchor}' in {resolved.name}"


# A source file a page names in code spans: `lanes.c`, `libsha/src/many/lanes.c`.
SOURCE_NAME = re.compile(r"`([\w./-]+\.(?:c|h|py|sh|cmake|toml|yml))`")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_source_file_a_page_names_exists(page):
    # A page that names a file the tree does not have (a header renamed, a module moved) fails here.
    tree = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*") if ".git" not in p.parts and p.is_file()]
    names = {path.rsplit("/", 1)[-1] for path in tree}
    for name in SOURCE_NAME.findall(page.read_text()):
        exists = any(path == name or path.endswith("/" + name) for path in tree) if "/" in name else name in names
        assert exists, f"{page.name} names {name}, which is not in the tree"


def test_the_readme_is_a_map():
    readme = (ROOT / "README.md").read_text()
    assert readme.count("\n") <= 150
    for page in PAGES[1:]:
        if page.name != "bad-input.md":
            assert str(page.relative_to(ROOT)) in readme, f"the README does not link {page.relative_to(ROOT)}"


def test_a_broken_link_is_caught(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[there](missing.md) [here](#title) [nowhere](#no-such)\n")
    assert relative_links(page) == ["missing.md", "#title", "#no-such"]
    assert not (page.parent / "missing.md").exists() and "title" in anchors(page) and "no-such" not in anchors(page)


def readme_rows():
    """The implementation names of the README's table, in its order."""
    text = (ROOT / "README.md").read_text()
    table = text.split("| implementation | what | needs |", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", table, re.M)


def test_the_readme_table_lists_exactly_the_registry_rows():
    # The one place outside the library's C that writes the names out: it must not drift from it.
    from support.rows import registry_rows

    release = {name for name, needs in registry_rows() if not any(n.startswith("TEST_") for n in needs)}
    assert readme_rows() and len(readme_rows()) == len(set(readme_rows()))
    assert set(readme_rows()) == release
    import libsha

    assert {i.name for i in libsha.dispatch.implementations() if "portable" not in i.name} <= release


def test_no_test_or_page_types_a_row_name():
    # Tests find rows by their kernels (tests/support/rows.py); pages describe them or point at the README.
    from support.rows import names

    compound = [n for n in names() if "(" in n]
    files = [*(ROOT / "tests").rglob("*.py"), *(ROOT / "tests" / "c").glob("*.[ch]"), *(ROOT / "docs").glob("*.md"),
             *(ROOT / "shabench").glob("*.py"),
             *(ROOT / "libsha").glob("*.py"), ROOT / "CMakeLists.txt"]
    typed = [(f.relative_to(ROOT), n) for f in files for n in compound if n in f.read_text()]
    assert typed == []


def test_every_c_function_is_on_the_c_api_page():
    header = "".join(path.read_text() for path in sorted((ROOT / "libsha" / "include").glob("*.h")))
    functions = re.findall(r"LIBSHA_API\s+[^;(]*?\b(libsha_\w+)\s*\(", header)
    page = (ROOT / "docs" / "c-api.md").read_text()
    assert len(functions) > 30 and [f for f in functions if f not in page] == []


def test_the_header_names_only_what_it_declares():
    # A comment that names libsha_files_progress.cancel where the struct is libsha_files_control fails here.
    headers = [path.read_text() for path in sorted((ROOT / "libsha" / "include").glob("*.h"))]
    header = "".join(headers)
    declared = set(re.findall(r"\b(libsha_\w+)\s*\(", header)) | set(re.findall(r"\b(?:struct|typedef struct)\s+(libsha_\w+)", header)) \
        | set(re.findall(r"}\s*(libsha_\w+);", header))
    for name, member in re.findall(r"\b(libsha_\w+)(?:\.(\w+))?", header):
        if member == "h":  # a header's name (libsha_dispatch.h, libsha_trees.h)
            continue
        assert name in declared, f"libsha.h names {name}, which it does not declare"
        if member:
            body = re.search(r"typedef struct " + name + r" \{(.*?)\}", header, re.S)
            assert body and re.search(r"\b" + member + r"\b", body.group(1)), f"libsha.h names {name}.{member}"


def glossary():
    """{word: its meaning} from docs/architecture.md's "Words" table, the markup taken out."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    table = page[page.index("## Words"):page.index("## Files, folder by folder")]
    words = {}
    for word, meaning in re.findall(r"^\| \*\*([\w ]+)\*\* \| (.*) \|$", table, re.M):
        words[word] = " ".join(re.sub(r"\*\*|`", "", meaning).split())
    return words


def header_words(text):
    """{word: its meaning} of a public header's "Words" list (` *   word   meaning`, continued indented)."""
    block = re.search(r"\* Words[^\n]*\n((?: \*  [^\n]*\n)+)", text)
    if block is None:
        return {}
    words, current = {}, None
    for line in block.group(1).splitlines():
        entry = re.match(r" \*   (\w+)\s{2,}(.*)", line)
        if entry:
            current = entry.group(1)
            words[current] = entry.group(2)
        elif current and line.strip(" *"):
            words[current] += " " + line.strip(" *")
    return {word: " ".join(meaning.split()) for word, meaning in words.items()}


def test_the_headers_words_are_the_glossarys():
    # One source: each public header's word list repeats the glossary's rows, word for word.
    meanings = glossary()
    listed = 0
    for path in sorted((ROOT / "libsha" / "include").glob("*.h")):
        for word, meaning in header_words(path.read_text()).items():
            listed += 1
            assert word in meanings, f"{path.name} defines {word!r}, which docs/architecture.md's glossary does not"
            assert meaning == meanings[word], f"{path.name}'s {word!r} differs from the glossary's:\n{meaning}\n{meanings[word]}"
    assert listed >= 10
