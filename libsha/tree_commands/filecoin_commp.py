"""`libsha commp FILE...`: each file's Filecoin piece commitment as go-fil-commp-hashhash's
`stream-commp` reports it (the piece CID, the payload, the padded piece), with FRC-0069's v2 CID;
`--json` a JSON object a line instead. `-` (or no file) is standard input. Exit statuses: 2 for a
bad command line, 1 if a file could not be read or is no piece's payload (the others still
reported)."""

from __future__ import annotations

import json
import sys

from . import UsageError, parse

USAGE = """\
Usage: libsha commp [--json] [--threads=N] [FILE]...
Each FILE's Filecoin piece commitment: commP's CIDs (v1 baga6ea4sea..., FRC-0069's v2
bafkzcib...), the payload's size and the padded piece's. With no FILE, or FILE -, standard input.

  --json         a JSON object a file, a line each
  --threads=N    threads hashing a file (0, the default: one per CPU this process may use)
  -h, --help     this help
"""
OPTIONS: dict[str, bool | None] = {"json": False, "threads": True, "help": False}


def main(argv: list[str]) -> int:
    from .. import filecoin

    try:
        files, given = parse(argv, OPTIONS, "libsha commp", {"h": "help"})
        settings = dict(given)
        if "help" in settings:
            sys.stdout.write(USAGE)
            return 0
        threads = settings.get("threads", "0")
        if not threads.isdigit():
            raise UsageError(f"libsha commp: --threads takes a number, not {threads!r}")
    except UsageError as exc:
        sys.stderr.write(f"{exc}\n{USAGE}")
        return 2
    status = 0
    for name in files or ["-"]:
        try:
            if name == "-":
                made = filecoin.piece_commitment(sys.stdin.buffer.read(), threads=int(threads))
            else:
                made = filecoin.file_piece_commitment(name, threads=int(threads))
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            sys.stderr.write(f"libsha commp: {name}: {reason}\n")
            status = 1
            continue
        if "json" in settings:
            print(json.dumps({"file": name, "commp": made.commp.hex(), "cid_v1": made.cid_v1, "cid_v2": made.cid_v2,
                              "payload_size": made.payload_size, "padded_size": made.padded_size}))
        else:
            print(f"{name}\n"
                  f"  CommPCid:       {made.cid_v1}\n"
                  f"  PieceCid (v2):  {made.cid_v2}\n"
                  f"  Payload:        {made.payload_size:>12} bytes\n"
                  f"  Unpadded piece: {made.padded_size // 128 * 127:>12} bytes\n"
                  f"  Padded piece:   {made.padded_size:>12} bytes")
        sys.stdout.flush()
    return status
