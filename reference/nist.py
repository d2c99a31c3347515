"""The NIST CAVP SHA-256 vectors shipped beside this module, parsed.

    from libsha.reference import nist
    for message, digest in nist.messages("SHA256ShortMsg.rsp"): ...
    for key, message, mac in nist.hmac_cases(): ...   # RFC 4231, beside them
    nist.pbkdf2_cases(), nist.hkdf_cases()             # RFC 7914's PBKDF2 and RFC 5869's HKDF
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Iterator

from importlib import resources

VECTORS = resources.files(__package__) / "vectors"


def _records(name: str, last: str = "MD") -> Iterator[dict[str, str]]:
    record: dict[str, str] = {}
    for line in (VECTORS / name).read_text(encoding="ascii").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "[")):
            continue
        key, _, value = line.partition("=")
        record[key.strip()] = value.strip()
        if key.strip() == last:
            yield record
            record = {}


def messages(name: str) -> list[tuple[bytes, bytes]]:
    """(message, digest) pairs of SHA256ShortMsg.rsp or SHA256LongMsg.rsp."""
    out = []
    for r in _records(name):
        bits = int(r["Len"])
        message = bytes.fromhex(r["Msg"])[: bits // 8]  # Len 0 still carries Msg = 00
        out.append((message, bytes.fromhex(r["MD"])))
    return out


def monte() -> tuple[bytes, list[bytes]]:
    """(seed, [checkpoint digests]) of SHA256Monte.rsp."""
    text = (VECTORS / "SHA256Monte.rsp").read_text(encoding="ascii")
    seed = next(line.split("=")[1].strip() for line in text.splitlines() if line.startswith("Seed"))
    return bytes.fromhex(seed), [bytes.fromhex(r["MD"]) for r in _records("SHA256Monte.rsp")]


def monte_checkpoints(hash_function: Callable[[bytes], bytes], seed: bytes, count: int) -> list[bytes]:
    """The first `count` checkpoints of the Monte Carlo test (SHAVS 6.4)."""
    checkpoints = []
    for _ in range(count):
        md = [seed, seed, seed]
        for _ in range(1000):
            md = [md[1], md[2], hash_function(md[0] + md[1] + md[2])]
        seed = md[2]
        checkpoints.append(seed)
    return checkpoints


def hmac_cases() -> list[tuple[bytes, bytes, bytes]]:
    """(key, message, mac) of RFC 4231's HMAC-SHA-256 cases 1-7; compare len(mac) bytes (case 5 is truncated)."""
    return [(bytes.fromhex(r["Key"]), bytes.fromhex(r["Data"]), bytes.fromhex(r["Mac"]))
            for r in _records("HMAC_SHA256_RFC4231.txt", last="Mac")]


def pbkdf2_cases() -> list[tuple[bytes, bytes, int, bytes]]:
    """(password, salt, iterations, key) of RFC 7914's PBKDF2-HMAC-SHA256 vectors (section 11)."""
    return [(bytes.fromhex(r["P"]), bytes.fromhex(r["S"]), int(r["c"]), bytes.fromhex(r["DK"]))
            for r in _records("PBKDF2_HMAC_SHA256_RFC7914.txt", last="DK")]


def hkdf_cases() -> list[tuple[bytes, bytes, bytes, int, bytes, bytes]]:
    """(ikm, salt, info, length, prk, okm) of RFC 5869's HKDF-SHA256 test cases 1-3."""
    return [(bytes.fromhex(r["IKM"]), bytes.fromhex(r["salt"]), bytes.fromhex(r["info"]), int(r["L"]),
             bytes.fromhex(r["PRK"]), bytes.fromhex(r["OKM"]))
            for r in _records("HKDF_SHA256_RFC5869.txt", last="OKM")]
