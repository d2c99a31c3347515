#!/usr/bin/env python3
"""The GitHub release's files, made from a tag (the workflow's release job runs it; tests/packaging/test_release.py
runs it here on a tag of a clone, the dry run):
    python3 tools/release.py check TAG          refuses a tag that is not vX.Y.Z of CMakeLists.txt's version, or
                                                whose CHANGELOG.md section has no date; prints the section
    python3 tools/release.py files TAG OUTDIR OWNER/NAME
                                                check, then into OUTDIR: libsha-X.Y.Z.tar.gz (the tag's tree, as
                                                `git archive` gives it, under libsha-X.Y.Z/), the vcpkg port
                                                libsha-X.Y.Z-vcpkg-port.tar.gz (the tag's packaging/vcpkg with the
                                                version, the GitHub repository the release is on and the archive's
                                                SHA-512 filled in), notes.md (the CHANGELOG section) and SHA256SUMS
                                                (sha256sum's format) of the archive and the port
Run from the checkout that holds the tag."""

import gzip
import hashlib
import io
import re
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def at_tag(tag: str, path: str) -> str:
    """A file of the tag's tree (not the work tree's)."""
    return subprocess.run(["git", "-C", str(ROOT), "show", f"{tag}:{path}"], capture_output=True, text=True,
                          check=True).stdout


def check(tag: str) -> tuple[str, str]:
    """(version, the changelog's section for it), or SystemExit saying what is wrong."""
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"refs/tags/{tag}"],
                           capture_output=True, text=True)
    if found.returncode != 0:
        sys.exit(f"release: no tag {tag} in {ROOT}")
    versions = re.findall(r"^project\(libsha VERSION (\d+\.\d+\.\d+)", at_tag(tag, "CMakeLists.txt"), re.M)
    if len(versions) != 1:
        sys.exit(f"release: {tag}'s CMakeLists.txt does not say project(libsha VERSION X.Y.Z) once")
    version = versions[0]
    if tag != f"v{version}":
        sys.exit(f"release: the tag is {tag}, and its CMakeLists.txt says version {version}: tag v{version}")
    changelog = at_tag(tag, "CHANGELOG.md")
    heading = re.search(rf"^## \[{re.escape(version)}\](?: - (\S+))?$", changelog, re.M)
    if heading is None:
        sys.exit(f"release: CHANGELOG.md at {tag} has no section ## [{version}]")
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", heading[1] or ""):
        sys.exit(f"release: CHANGELOG.md's ## [{version}] is dated {heading[1]!r}: give it the release's date "
                 "(YYYY-MM-DD) in the tagged commit")
    rest = changelog[heading.end():]
    following = re.search(r"^## \[", rest, re.M)
    return version, rest[: following.start() if following else len(rest)].strip() + "\n"


def gzipped(data: bytes) -> bytes:
    """gzip without a file name or time in its header: the same input gives the same bytes."""
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as gz:
        gz.write(data)
    return out.getvalue()


def vcpkg_port(tag: str, values: dict[str, str]) -> bytes:
    """The tag's packaging/vcpkg/libsha with its @NAME@s filled in, as a .tar.gz."""
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", f"{tag}:packaging/vcpkg/libsha"],
                           capture_output=True, text=True, check=True).stdout.split()
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as port:
        for name in sorted(names):
            text = at_tag(tag, f"packaging/vcpkg/libsha/{name}")
            for key, value in values.items():
                text = text.replace(f"@{key}@", value)
            if re.search(r"@[A-Z0-9]+@", text):
                sys.exit(f"release: packaging/vcpkg/libsha/{name} names a value release.py does not fill in")
            data = text.encode()
            info = tarfile.TarInfo(f"libsha/{name}")
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            port.addfile(info, io.BytesIO(data))
    return gzipped(out.getvalue())


def files(tag: str, outdir: Path, repository: str) -> None:
    version, notes = check(tag)
    outdir.mkdir(parents=True, exist_ok=True)
    name = f"libsha-{version}"
    # git archive's tar of the tag (its files' times are the tagged commit's), gzipped here.
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", f"--prefix={name}/", tag],
                         capture_output=True, check=True).stdout
    archive = outdir / f"{name}.tar.gz"
    archive.write_bytes(gzipped(tar))
    sha512 = hashlib.sha512(archive.read_bytes()).hexdigest()
    port = outdir / f"{name}-vcpkg-port.tar.gz"
    port.write_bytes(vcpkg_port(tag, {"VERSION": version, "SHA512": sha512, "REPOSITORY": repository}))
    (outdir / "notes.md").write_text(notes)
    sums = "".join(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.name}\n" for p in (archive, port))
    (outdir / "SHA256SUMS").write_text(sums)
    print(f"release: {tag}: {archive.name}, {port.name}, notes.md, SHA256SUMS in {outdir}")


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "check":
        print(check(argv[1])[1], end="")
        return 0
    if len(argv) == 4 and argv[0] == "files" and re.fullmatch(r"[\w.-]+/[\w.-]+", argv[3]):
        files(argv[1], Path(argv[2]), argv[3])
        return 0
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
