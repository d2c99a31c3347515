"""--tree: another implementation's fs-verity file digests, dm-verity root hashes, Glacier tree
hashes, IPFS CIDs or Filecoin piece commitments, case by case, against libsha.reference's trees over hashlib. The cases are the
sizes where such trees break: empty, one byte, every size around one data block (Glacier's 1 MiB
leaf, an IPFS chunk), a level of hash blocks just full and just over (one level and two; Glacier's
leaf counts where a level's last hash is carried up; an IPFS node's links full and one over;
Filecoin's fr32 groups and padded sizes, from its least payload, 65 bytes), and
random sizes from the printed seed; the content never repeats with a short period. A --command gets
each case as a file ({file}; dm-verity's hash file is {hash}) and prints the digest (fs-verity's
`sha256:HEX` or bare hex, veritysetup's `Root hash:`, a CID as `ipfs add` prints it, a piece CID
v1 or commP's hex, or where --digest-regex finds it); a --callable takes the bytes and returns the
digest (bytes, hex or a hashlib-like object; a CID as its string; commP as 32 bytes, its hex, its
CID or an object with cid_v1)."""

from __future__ import annotations

import hashlib
import importlib
import os
import random
import re
import shlex
import subprocess
import tempfile

from libsha.reference import dmverity, filecoin, fsverity, glacier, ipfs

from .suites import content, recipe

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

TREES = ("fsverity", "dmverity", "glacier", "ipfs", "filecoin")
DEFAULT_REGEX = {"fsverity": r"(?:sha256:)?([0-9a-fA-F]{64})", "dmverity": r"Root hash:\s*([0-9a-fA-F]{64})",
                 "glacier": r"\b([0-9a-fA-F]{64})\b", "ipfs": r"\b(Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{58,})\b",
                 "filecoin": r"\b(baga6ea4sea[a-z2-7]+|[0-9a-fA-F]{64})\b"}
RANDOM_CASES, RANDOM_CASES_QUICK = 12, 4


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def expected(tree: str, data: bytes, block: int, hash_block: int, salt: bytes, fmt: int,
             profile: str = "unixfs-v0-2015") -> bytes:
    if tree == "ipfs":  # a CID compares as its text
        return ipfs.cid(data, profile, sha256=_sha).encode()
    if tree == "filecoin":  # commP as its piece CID v1's text
        return filecoin.cid_v1(filecoin.piece_commitment(data, _sha)[0]).encode()
    if tree == "fsverity":
        return fsverity.digest(data, block, salt, _sha)
    if tree == "glacier":
        return glacier.tree_hash(data, _sha)
    return dmverity.tree(data, block, hash_block, salt, fmt, _sha)[0]


def _answer(tree: str, text: str) -> bytes:
    """A candidate's answer as expected() gives it: a CID's text, a digest's bytes."""
    text = text.strip()
    if tree == "filecoin" and re.fullmatch(r"[0-9a-fA-F]{64}", text):  # commP's hex, as its CID
        return filecoin.cid_v1(bytes.fromhex(text)).encode()
    return text.encode() if tree in ("ipfs", "filecoin") else bytes.fromhex(text)


def _shown(tree: str, value: bytes) -> str:
    return value.decode(errors="replace") if tree in ("ipfs", "filecoin") else value.hex()


def sizes(tree: str, block: int, hash_block: int, rng: random.Random, quick: bool,
          profile: str = "unixfs-v0-2015") -> list[int]:
    """The cases' sizes: around one block, around a full first level and a second one, random ones."""
    if tree == "filecoin":  # around a group, each padded size's last payload and the next, random ones
        around = [filecoin.MIN_PAYLOAD, 126, 127, 128, 254, 255]
        around += [127 * (1 << k) + d for k in range(2, 13 if quick else 16) for d in (-1, 0, 1)]
        top = (1 if quick else 4) << 20
        randoms = [rng.randrange(65, top) for _ in range(RANDOM_CASES_QUICK if quick else RANDOM_CASES)]
        return list(dict.fromkeys(around + randoms))
    if tree == "ipfs":  # around a chunk and a few; a node's links full, and one chunk over where it fits
        chunk, links = ipfs.PROFILES[profile][:2]
        around = [0, 1, chunk - 1, chunk, chunk + 1, 2 * chunk + 1, 3 * chunk]
        if not quick and links * chunk + 1 <= 64 << 20:
            around += [links * chunk, links * chunk + 1]
        randoms = [rng.randrange(5 * chunk) for _ in range(RANDOM_CASES_QUICK if quick else RANDOM_CASES)]
        return list(dict.fromkeys(around + randoms))
    if tree == "glacier":  # leaf counts where some level's last hash goes up alone, or is paired
        leaf = glacier.LEAF_SIZE
        counts = (1, 2, 3, 5) if quick else (1, 2, 3, 4, 5, 7, 8, 9, 16, 17)
        around = [c * leaf + d for c in counts for d in (-1, 0, 1)]
        randoms = [rng.randrange(18 * leaf) for _ in range(RANDOM_CASES_QUICK if quick else RANDOM_CASES)]
        return list(dict.fromkeys([0, 1] + around + randoms))
    per = hash_block // 32
    around = [block - 1, block, block + 1, 2 * block, 2 * block + 1, per * block, per * block + 1,
              (per + 1) * block - 1]
    if not quick:
        around += [per * per * block, per * per * block + block]  # two levels just full, and three
    first = [0, 1] if tree == "fsverity" else []
    top = max(around)
    randoms = [rng.randrange(block, top) for _ in range(RANDOM_CASES_QUICK if quick else RANDOM_CASES)]
    least = 0 if tree == "fsverity" else block  # dm-verity's devices hold at least one whole block
    return [s for s in dict.fromkeys(first + around + randoms) if least <= s <= 64 << 20]


class Unusable(Exception):
    """The candidate cannot run at all (exit status 2)."""


def command_candidate(command: str, tree: str, regex: str, timeout: float) -> Callable[[bytes], bytes]:
    argv = shlex.split(command)
    if "{file}" not in command:
        raise Unusable("a --tree command takes each case as a file: put {file} where its path goes")
    if tree == "dmverity" and "{hash}" not in command:
        raise Unusable("a dm-verity command writes a hash file: put {hash} where its path goes")
    pattern = re.compile(regex or DEFAULT_REGEX[tree])

    def answer(data: bytes) -> bytes:
        with tempfile.TemporaryDirectory(prefix="libsha-oracle-") as folder:
            path, hash_path = os.path.join(folder, "data"), os.path.join(folder, "hash")
            with open(path, "wb") as f:
                f.write(data)
            args = [a.replace("{file}", path).replace("{hash}", hash_path) for a in argv]
            try:  # run beside its file: a source checkout in the caller's folder would shadow an installed package
                done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=folder)
            except FileNotFoundError as exc:
                raise Unusable(f"cannot run {argv[0]}: {exc.strerror}") from None
            except subprocess.TimeoutExpired:
                raise RuntimeError(f"no answer within {timeout:g} s") from None
        found = pattern.search(done.stdout)
        if done.returncode != 0 or found is None:
            raise RuntimeError(f"exit status {done.returncode}, no digest in its output"
                               + (f": {done.stderr.strip()[:300]}" if done.stderr.strip() else ""))
        return _answer(tree, found.group(1))

    return answer


def callable_candidate(name: str, tree: str = "") -> Callable[[bytes], bytes]:
    module, _, function = name.partition(":")
    try:
        call = getattr(importlib.import_module(module), function)
    except (ImportError, AttributeError) as exc:
        raise Unusable(f"cannot load {name}: {exc}") from None

    def answer(data: bytes) -> bytes:
        got = call(data)
        if hasattr(got, "digest"):  # a hashlib-like object
            got = got.digest()
        if tree == "filecoin":  # a commitment object, commP's bytes, its hex or its CID
            got = getattr(got, "cid_v1", got)
            got = got if isinstance(got, str) else bytes(got).hex()
        return _answer(tree, got) if isinstance(got, str) else bytes(got)

    return answer


def run(tree: str, candidate: Callable[[bytes], bytes], block: int, hash_block: int, salt: bytes, fmt: int,
        seed: int, quick: bool, say: Callable[[str], None], profile: str = "unixfs-v0-2015") -> int:
    """Every case through the candidate; a line a failure, then the count. 0: all passed, 1: not."""
    rng = random.Random(seed)
    cases = sizes(tree, block, hash_block, rng, quick, profile)
    failed = 0
    for number, size in enumerate(cases):
        period = content(251, number)  # content(size, number), made a period at a time
        data = (period * (size // 251 + 1))[:size]
        want = expected(tree, data, block, hash_block, salt, fmt, profile)
        try:
            got = candidate(data)
        except Unusable:
            raise
        except Exception as exc:  # its failure is a finding, as a wrong digest is
            failed += 1
            say(f"FAIL {size} bytes: {exc} (data: {recipe(size, number)})")
            continue
        if got != want:
            failed += 1
            say(f"FAIL {size} bytes: expected {_shown(tree, want)}, got {_shown(tree, got)} "
                f"(data: {recipe(size, number)})")
    params = f"block size {block}" + (f", hash block size {hash_block}, format {fmt}" if tree == "dmverity" else "")
    params = ("1 MiB leaves" if tree == "glacier" else profile if tree == "ipfs" else "fr32, 254-bit nodes"
              if tree == "filecoin" else f"{params}, salt {salt.hex() or 'none'}")
    say(f"{tree} ({params}): {len(cases) - failed} of {len(cases)} cases passed, seed {seed}")
    return 1 if failed else 0
