"""`libsha fsverity digest FILE...`: fsverity-utils' `fsverity digest`, line for line and file for
file (--out-merkle-tree, --out-descriptor: each file's in turn, as fsverity writes them), with its
exit statuses: 2 for a bad command line, 1 for a file that cannot be read. SHA-256 only; block
sizes from 1 KiB to 64 KiB (what the kernel can enable)."""

from __future__ import annotations

import sys

from . import UsageError, parse

USAGE = """\
Usage:
    libsha fsverity digest FILE...
               [--hash-alg=HASH_ALG] [--block-size=BLOCK_SIZE] [--salt=SALT]
               [--out-merkle-tree=FILE] [--out-descriptor=FILE]
               [--compact] [--for-builtin-sig]
"""
OPTIONS = {"hash-alg": True, "block-size": True, "salt": True, "out-merkle-tree": True, "out-descriptor": True,
           "compact": False, "for-builtin-sig": False, "help": False}
ONCE = ("hash-alg", "block-size", "salt", "out-merkle-tree", "out-descriptor")
FORMATTED_MAGIC = b"FSVerity"  # struct fsverity_formatted_digest, for the kernel's built-in signatures


def _settings(given: list[tuple[str, str]]) -> dict[str, str]:
    settings: dict[str, str] = {}
    for name, value in given:
        if name in ONCE and name in settings:
            raise UsageError(f"ERROR: --{name} can only be specified once")
        settings[name] = value
    if settings.get("hash-alg", "sha256") != "sha256":
        raise UsageError(f"ERROR: libsha computes SHA-256 only, not '{settings['hash-alg']}'\n"
                         "Available hash algorithms: sha256")
    text = settings.get("block-size", "4096")
    if not text.isdigit() or int(text) & (int(text) - 1) or int(text) == 0:
        raise UsageError(f"ERROR: Invalid block size: {text}.  Must be power of 2")
    if not 1024 <= int(text) <= 65536:
        raise UsageError(f"ERROR: Unsupported block size: {text}.  libsha takes 1024 to 65536 (the kernel's range)")
    try:
        bytes.fromhex(settings.get("salt", ""))
    except ValueError:
        raise UsageError("ERROR: salt is not a valid hex string") from None
    return settings


def main(argv: list[str]) -> int:
    from .. import fsverity
    from .._trees.verity import write_whole

    try:
        files, given = parse(argv, OPTIONS, "digest")
        if ("help", "") in given:
            sys.stdout.write(USAGE)
            return 0
        settings = _settings(given)
        if not files:
            raise UsageError("")
    except UsageError as exc:
        sys.stderr.write((f"{exc}\n" if str(exc) else "") + USAGE)
        return 2
    block, salt = int(settings.get("block-size", "4096")), bytes.fromhex(settings.get("salt", ""))
    if len(salt) > fsverity.MAX_SALT:
        sys.stderr.write(f"ERROR: unsupported salt size ({len(salt)})\nERROR: failed to compute digest\n")
        return 1
    trees, descriptors = [], []
    for name in files:
        try:
            made = fsverity.file_tree(name, block_size=block, salt=salt)
        except OSError as exc:
            if isinstance(exc, IsADirectoryError):
                sys.stderr.write(f"ERROR: reading from '{name}': {exc.strerror}\nERROR: error reading file\n"
                                 "ERROR: failed to compute digest\n")
            else:
                sys.stderr.write(f"ERROR: can't open '{name}' for reading: {exc.strerror}\n")
            return 1
        digest = made.digest
        if "for-builtin-sig" in settings:
            digest = FORMATTED_MAGIC + (1).to_bytes(2, "little") + (32).to_bytes(2, "little") + digest
        if "compact" in settings:
            print(digest.hex())
        elif "for-builtin-sig" in settings:
            print(f"{digest.hex()} {name}")
        else:
            print(f"sha256:{digest.hex()} {name}")
        trees.append(made.tree or b"")
        descriptors.append(made.descriptor)
    # Of several files, fsverity appends the descriptors but writes each tree from the file's start, over
    # the one before. Here the files are written whole or not at all, once every tree was made.
    tree_file = bytearray()
    for tree in trees:
        tree_file[: len(tree)] = tree
    for option, content in (("out-merkle-tree", bytes(tree_file)), ("out-descriptor", b"".join(descriptors))):
        if option in settings:
            try:
                write_whole(settings[option], content)
            except OSError as exc:
                sys.stderr.write(f"ERROR: can't open '{settings[option]}' for writing: {exc.strerror}\n")
                return 1
    sys.stdout.flush()
    return 0
