"""The README is a map: short, with every relative link in it and in docs/ (and the Dask example's
page) leading to a file that exists and, with an anchor, to a heading of that file."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "examples" / "dask" / "README.md"]
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
