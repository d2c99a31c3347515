"""The kernel trees' own tools, run as commands: fsverity-utils' `fsverity digest` and cryptsetup's
`veritysetup format` (Debian's fsverity and cryptsetup-bin). shabench times them beside libsha;
the tests hold libsha's files and lines to theirs through the same functions."""

from __future__ import annotations

import os
import shutil
import subprocess

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def fsverity_command() -> str | None:
    return shutil.which("fsverity")


def veritysetup_command() -> str | None:
    # Debian puts it in /usr/sbin, which a user's PATH may not have.
    return shutil.which("veritysetup") or shutil.which("veritysetup", path="/usr/sbin:/sbin")


def fsverity_digest_argv(path: Any, *, block_size: int = 4096, salt: bytes = b"", tree: Any = None,
                         descriptor: Any = None) -> list[str]:
    argv = [fsverity_command() or "fsverity", "digest", os.fspath(path), f"--block-size={block_size}"]
    if salt:
        argv.append(f"--salt={salt.hex()}")
    if tree is not None:
        argv.append(f"--out-merkle-tree={os.fspath(tree)}")
    if descriptor is not None:
        argv.append(f"--out-descriptor={os.fspath(descriptor)}")
    return argv


def fsverity_digest(path: Any, **options: Any) -> bytes:
    """The fs-verity file digest `fsverity digest` prints for the file (options: fsverity_digest_argv's)."""
    line = subprocess.run(fsverity_digest_argv(path, **options), check=True, capture_output=True, text=True).stdout
    return bytes.fromhex(line.split()[0].split(":")[1])


def veritysetup_format_argv(data: Any, hash_file: Any, *, salt: bytes = b"", data_block_size: int = 4096,
                            hash_block_size: int = 4096, format: int = 1, superblock: bool = True,
                            uuid: str | None = None, hash_offset: int = 0,
                            data_blocks: int | None = None) -> list[str]:
    argv = [veritysetup_command() or "veritysetup", "format", os.fspath(data), os.fspath(hash_file),
            f"--salt={salt.hex() if salt else '-'}", f"--data-block-size={data_block_size}",
            f"--hash-block-size={hash_block_size}", f"--format={format}", f"--hash-offset={hash_offset}"]
    if not superblock:
        argv.append("--no-superblock")
    if uuid is not None:
        argv.append(f"--uuid={uuid}")
    if data_blocks is not None:
        argv.append(f"--data-blocks={data_blocks}")
    return argv


def veritysetup_format(data: Any, hash_file: Any, **options: Any) -> tuple[bytes, str]:
    """(root hash, the lines it printed) of `veritysetup format` (options: veritysetup_format_argv's)."""
    out = subprocess.run(veritysetup_format_argv(data, hash_file, **options), check=True, capture_output=True,
                         text=True).stdout
    root = next(line.split()[-1] for line in out.splitlines() if line.startswith("Root hash:"))
    return bytes.fromhex(root), out
