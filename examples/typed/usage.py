"""libsha as a typed program uses it: `mypy --strict` must pass on this file (tests/packaging/test_typing.py)."""

from __future__ import annotations

import hashlib
import hmac

import libsha
from libsha import dispatch, sha256
from libsha.reference import hmac_sha256 as reference_hmac


def fingerprint(chunks: list[bytes]) -> str:
    h: sha256 = sha256()  # as `from hashlib import sha256` would read
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
    digest: bytes = libsha.sha256_digest(b"abc")
    assert digest == hashlib.sha256(b"abc").digest() == sha256(b"abc").digest()
    text: str = libsha.sha256_hexdigest(bytearray(b"abc"))
    assert text == libsha.new("sha256", b"abc").hexdigest()
    assert hmac.new(b"key", b"msg", libsha.sha256).digest() == hmac.digest(b"key", b"msg", "sha256")
    names: list[str] = [impl.name for impl in dispatch.implementations() if impl.runnable]
    with dispatch.using(names[-1]):
        assert dispatch.implementation() == names[-1]
    features: dict[str, int] = dispatch.CPU_FEATURES
    assert set(dispatch.cpu_features()) <= set(features)
    # Why this row: the CPU model table's entry and advice, and the same decision for another CPU.
    model: str | None = dispatch.cpu_model()
    advice: list[str] = dispatch.cpu_tuning()
    automatic: list[str] = [impl.name for impl in dispatch.implementations() if impl.automatic]
    assert dispatch.implementation_for(dispatch.cpu_features(), advice) == automatic[0], model
    other: dispatch.Decision = dispatch.decide_x86("AuthenticAMD", (0x00B00F21, 0, 0x18080200, 0), (0, 0xE0010128, 0, 0), 0xE7)
    assert other.model is not None and other.implementation in {impl.name for impl in dispatch.implementations()}
    version: str = libsha.library_version()
    print(version, fingerprint([b"a", b"b"]), authenticate(b"k", bytearray(b"m")).hex(), libsha.sha256d64(bytes(64)).hex())


if __name__ == "__main__":
    main()
