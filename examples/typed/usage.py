"""libsha as a typed program uses it: `mypy --strict` must pass on this file (tests/test_typing.py)."""

from __future__ import annotations

import hashlib
import hmac

import libsha
from libsha.reference import hmac_sha256 as reference_hmac


def fingerprint(chunks: list[bytes]) -> str:
    h: libsha.SHA256 = libsha.new()
    for chunk in chunks:
        h.update(chunk)
    other = h.copy()
    other.update(memoryview(b"more"))
    return h.hexdigest()


def authenticate(key: bytes, message: bytearray) -> bytes:
    tag: bytes = libsha.hmac_sha256(key, message)
    mac: libsha.HMAC = libsha.hmac_new(key, message)
    assert hmac.compare_digest(tag, mac.digest())
    assert tag == reference_hmac(key, message)
    return tag


def main() -> None:
    digest: bytes = libsha.sha256(b"abc")
    assert digest == hashlib.sha256(b"abc").digest()
    assert hmac.new(b"key", b"msg", libsha.new).digest() == hmac.digest(b"key", b"msg", "sha256")
    names: list[str] = [impl.name for impl in libsha.implementations() if impl.runnable]
    with libsha.using(names[-1]):
        assert libsha.implementation() == names[-1]
    print(fingerprint([b"a", b"b"]), authenticate(b"k", bytearray(b"m")).hex(), libsha.sha256d64(bytes(64)).hex())


if __name__ == "__main__":
    main()
