"""The release: the workflow passes zizmor with nothing above low (and zizmor does catch a tag where a commit
should be), and a dry run of tools/release.py on a tag of a clone makes the GitHub release's files (the archive
every file the tag tracks, so it builds as a clean clone does), and refuses a tag that does not match."""

import hashlib
import re
import shutil
import subprocess
import sys
import tarfile
from datetime import date
from pathlib import Path

import pytest
from support.paths import ROOT
from support.processes import run_command as run
from support.version import project_version

WORKFLOW = ROOT / ".github" / "workflows" / "wheels.yml"
ZIZMOR = shutil.which("zizmor") or shutil.which("zizmor", path=str(Path(sys.executable).parent))

pytestmark = pytest.mark.skipif(not WORKFLOW.exists(), reason="needs the source checkout")


def zizmor(path):
    # --offline: the audits that need GitHub's API (a pinned commit's tag, known advisories) are left out.
    return subprocess.run([ZIZMOR, "--offline", "--min-severity", "medium", "--no-progress", str(path)],
                          capture_output=True, text=True)


@pytest.mark.tooling
@pytest.mark.skipif(ZIZMOR is None, reason="needs zizmor (the release extra, part of the test extras)")
def test_the_workflow_passes_zizmor_with_nothing_above_low(tmp_path):
    result = zizmor(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr
    # Every action pinned by a full commit, its tag in a comment.
    uses = re.findall(r"uses: (\S+)@(\S+)(.*)", WORKFLOW.read_text())
    assert uses and all(re.fullmatch(r"[0-9a-f]{40}", ref) and re.search(r"# v\d", rest) for _, ref, rest in uses), uses
    # zizmor does find what it is here for: an action pinned by tag, credentials left to later steps.
    broken = tmp_path / "wheels.yml"
    broken.write_text(re.sub(r"actions/checkout@[0-9a-f]{40}", "actions/checkout@v7", WORKFLOW.read_text(), count=1))
    result = zizmor(broken)
    assert result.returncode != 0 and "unpinned-uses" in result.stdout + result.stderr, result.stdout


def git(*args, cwd):
    return run("git", "-c", "user.name=dry run", "-c", "user.email=dry-run@invalid", *args, cwd=cwd)


@pytest.fixture(scope="module")
def tagged_clone(tmp_path_factory):
    """A clone of this checkout's HEAD whose CHANGELOG section for the version is given today's date, tagged."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and the checkout's history")
    clone = tmp_path_factory.mktemp("release") / "libsha"
    run("git", "clone", "-q", "--no-local", ROOT, clone)
    version = project_version()  # (the clone is of this checkout's HEAD)
    changelog = clone / "CHANGELOG.md"
    text, dated = re.subn(rf"^## \[{re.escape(version)}\].*$", f"## [{version}] - {date.today():%Y-%m-%d}",
                          changelog.read_text(), count=1, flags=re.M)
    assert dated == 1, f"CHANGELOG.md has no section for {version}"
    changelog.write_text(text)
    git("commit", "-q", "-am", f"libsha {version}", cwd=clone)
    git("tag", f"v{version}", cwd=clone)
    return clone, version


def release(clone, *args):
    return subprocess.run([sys.executable, str(clone / "tools" / "release.py"), *args], capture_output=True, text=True)


def test_a_dry_run_makes_the_release_files(tagged_clone, tmp_path):
    clone, version = tagged_clone
    out = tmp_path / "release"
    result = release(clone, "files", f"v{version}", str(out), "owner/libsha")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [f"libsha-{version}.tar.gz", f"libsha-{version}-vcpkg-port.tar.gz", "notes.md", "SHA256SUMS"])
    # The checksums as sha256sum -c reads them.
    for line in (out / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split("  ")
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest
    # The archive: the tag's tree under libsha-X.Y.Z/, every file git tracks there and nothing else. So it
    # builds as a clean clone of the tag builds: the install tree (test_examples.py), the README's C
    # quick start and `conan create` (test_conan.py) build one, and test_version.py checks the version
    # its pkg-config file and CMake package say.
    archive = out / f"libsha-{version}.tar.gz"
    with tarfile.open(archive) as tar:
        files = {m.name for m in tar.getmembers() if not m.isdir()}
    tracked = run("git", "ls-files", cwd=clone).split("\n")
    assert files == {f"libsha-{version}/{name}" for name in tracked if name}
    for needed in ("CMakeLists.txt", "LICENSE", "CHANGELOG.md", "libsha/include/libsha.h", "cmake/libsha.pc.in",
                   "packaging/conan/conanfile.py"):
        assert f"libsha-{version}/{needed}" in files, needed
    # Every file the same bytes when made again (the port too: gzip without a time).
    again = tmp_path / "again"
    assert release(clone, "files", f"v{version}", str(again), "owner/libsha").returncode == 0
    assert all((again / p.name).read_bytes() == p.read_bytes() for p in out.iterdir()), "not the same bytes again"
    # The notes: CHANGELOG's section, nothing of the next one.
    notes = (out / "notes.md").read_text()
    assert "### " in notes and "## [" not in notes, notes
    # The vcpkg port names this version, the release's address and the archive's SHA-512.
    with tarfile.open(out / f"libsha-{version}-vcpkg-port.tar.gz") as port:
        manifest = port.extractfile("libsha/vcpkg.json").read().decode()
        portfile = port.extractfile("libsha/portfile.cmake").read().decode()
    assert f'"version": "{version}"' in manifest and "owner/libsha" in manifest
    assert f"SHA512 {hashlib.sha512(archive.read_bytes()).hexdigest()}" in portfile
    assert "https://github.com/owner/libsha/releases/download/v${VERSION}/libsha-${VERSION}.tar.gz" in portfile
    assert not re.search(r"@[A-Z0-9]+@", manifest + portfile)  # nothing left unfilled


def test_a_tag_that_does_not_match_is_refused(tagged_clone):
    clone, version = tagged_clone
    git("tag", "v9.9.9", cwd=clone)
    result = release(clone, "check", "v9.9.9")
    assert result.returncode != 0 and f"says version {version}: tag v{version}" in result.stderr
    result = release(clone, "check", "v0.0.0-missing")
    assert result.returncode != 0 and "no tag v0.0.0-missing" in result.stderr
    # The tag on the commit before, whose section still says Unreleased: not a release.
    dated = git("rev-parse", "HEAD", cwd=clone).strip()
    git("tag", "-f", f"v{version}", "HEAD~1", cwd=clone)
    result = release(clone, "check", f"v{version}")
    assert result.returncode != 0 and "give it the release's date" in result.stderr, result.stderr
    git("tag", "-f", f"v{version}", dated, cwd=clone)
    result = release(clone, "check", f"v{version}")
    assert result.returncode == 0 and "## [" not in result.stdout and result.stdout.strip(), result.stderr
