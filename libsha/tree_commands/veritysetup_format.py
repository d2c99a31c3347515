"""`libsha verity format DATA HASH`: cryptsetup's `veritysetup format`, for the tree: the same hash
file byte for byte (superblock, --no-superblock, --hash-offset, --data-blocks, both formats), the
same lines, and its exit statuses (1 for a bad argument, 4 for a data device that is not there).
As veritysetup, a random salt and UUID where none is given (--salt=- for none). SHA-256 only."""

from __future__ import annotations

import os
import sys
import uuid as _uuid

from . import UsageError, parse

USAGE = """\
Usage: libsha verity format [OPTION...] <data_device> <hash_device>
        [--salt=hex|-] [--data-block-size=bytes] [--hash-block-size=bytes] [--format=number]
        [--no-superblock] [--uuid=uuid] [--hash-offset=bytes] [--data-blocks=blocks] [--hash=sha256]
"""
OPTIONS = {"salt": True, "data-block-size": True, "hash-block-size": True, "format": True, "no-superblock": False,
           "uuid": True, "hash-offset": True, "data-blocks": True, "hash": True, "help": False}


class Refused(Exception):
    """veritysetup's refusal: its message, and exit status 1."""


def _number(settings: dict[str, str], name: str, default: int) -> int:
    text = settings.get(name, str(default))
    if not text.isdigit():
        raise UsageError(f"Invalid value for --{name}: {text}")
    return int(text)


def _options(settings: dict[str, str]) -> dict[str, object]:
    if settings.get("hash", "sha256") != "sha256":
        raise Refused(f"libsha computes SHA-256 only, not {settings['hash']}.")
    dbs, hbs = _number(settings, "data-block-size", 4096), _number(settings, "hash-block-size", 4096)
    for size in (dbs, hbs):
        if size < 512 or size > 65536 or size & (size - 1):
            raise Refused("Unsupported VERITY block size.")
    fmt = _number(settings, "format", 1)
    if fmt not in (0, 1):
        raise Refused(f"Unsupported VERITY hash type {fmt}.")
    text = settings.get("salt")
    if text is None:
        salt = os.urandom(32)  # veritysetup's default: a random salt of the digest's size
    elif text == "-":
        salt = b""
    else:
        try:
            salt = bytes.fromhex(text)
        except ValueError:
            raise Refused("Invalid salt string specified.") from None
        if len(salt) > 256:
            raise Refused("")  # veritysetup says nothing here either
    offset = _number(settings, "hash-offset", 0)
    if offset % 512:
        raise Refused("Unsupported VERITY hash offset.")
    device = None
    if "no-superblock" not in settings:
        try:
            device = _uuid.UUID(settings["uuid"]) if "uuid" in settings else _uuid.uuid4()
        except ValueError:
            raise Refused("Wrong VERITY UUID format provided on device {hash}.") from None
    blocks = _number(settings, "data-blocks", 0) if "data-blocks" in settings else None
    return dict(salt=salt, data_block_size=dbs, hash_block_size=hbs, format=fmt,
                superblock="no-superblock" not in settings, uuid=device, hash_offset=offset, data_blocks=blocks)


def main(argv: list[str]) -> int:
    from .. import dmverity

    try:
        operands, given = parse(argv, OPTIONS, "verity format")
        settings = dict(given)
        if "help" in settings:
            sys.stdout.write(USAGE)
            return 0
        if len(operands) != 2:
            raise UsageError("libsha verity format takes <data_device> <hash_device>")
        data, hash_file = operands
        options = _options(settings)
    except UsageError as exc:
        sys.stderr.write(f"{exc}\n{USAGE}")
        return 1
    except Refused as exc:
        sys.stderr.write(str(exc).format(hash=operands[1]) + "\n" if str(exc) else "")
        return 1
    if not os.path.exists(data):
        sys.stderr.write(f"Device {data} does not exist or access denied.\n")
        return 4
    page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
    if _number(settings, "data-block-size", 4096) > page:
        sys.stderr.write(f"WARNING: Kernel cannot activate device if data block size exceeds page size ({page}).\n")
    try:
        made = dmverity.format(data, hash_file, **options)  # type: ignore[arg-type]
    except ValueError as exc:
        # veritysetup's words: a device with too few blocks for --data-blocks, or none at all
        sys.stderr.write(("Input/output error while creating hash area." if "data_blocks is" in str(exc) else
                          f"Device {data} is too small.") + f" ({exc})\n")
        return 1
    except OSError as exc:
        where = "data device" if exc.filename == os.fsdecode(data) else "hash image"
        sys.stderr.write(f"Cannot use {where} {exc.filename}: {exc.strerror}.\n")
        return 1
    lines = [f"VERITY header information for {hash_file}",
             f"UUID:            \t{made.uuid or ''}",
             f"Hash type:       \t{made.format}",
             f"Data blocks:     \t{made.data_blocks}",
             f"Data block size: \t{made.data_block_size}",
             f"Hash blocks:     \t{made.hash_blocks}",
             f"Hash block size: \t{made.hash_block_size}",
             "Hash algorithm:  \tsha256",
             f"Salt:            \t{made.salt.hex() or '-'}",
             f"Root hash:      \t{made.root.hex()}"]
    if made.hash_offset == 0:  # veritysetup prints the size only for a hash device of its own
        lines.append(f"Hash device size: \t{made.hash_device_size} [bytes]")
    print("\n".join(lines))
    return 0
