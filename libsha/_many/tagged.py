"""BIP-340 tagged hashes: SHA-256(SHA-256(tag) || SHA-256(tag) || message), the tag's 64-byte
block made once per tag and, for a batch, hashed once and every lane started from its state."""

from __future__ import annotations

from .._errors import a_type
from .._one import oneshot
from .._views import contiguous_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from typing_extensions import Buffer

# Tags are public names ("BIP0340/challenge"): their blocks may be kept. A few programs use a few
# tags; the bound keeps one that makes tags from data from growing without end. Each get, set and
# clear is atomic, free-threaded too: threads racing here at worst make a block twice.
_BLOCKS: dict[bytes, bytes] = {}
_MAX_TAGS = 256
# Messages up to this long are hashed with the tag's block in one call (the copy costs less than a
# context); longer ones go through a hash object, uncopied.
_JOIN_BELOW = 4096


def tag_block(tag: str | Buffer) -> bytes:
    """SHA-256(tag) twice: the 64 bytes every message of that tag is hashed after (tag: str as UTF-8, or bytes)."""
    if isinstance(tag, str):
        key = tag.encode()
    elif type(tag) is bytes:
        key = tag
    else:
        try:
            key = contiguous_view(tag, "tag").tobytes()
        except TypeError:
            raise TypeError(f"tag is str or bytes-like, not {a_type(tag)}") from None
    block = _BLOCKS.get(key)
    if block is None:
        block = oneshot.sha256_digest(key) * 2
        if len(_BLOCKS) >= _MAX_TAGS:
            _BLOCKS.clear()
        _BLOCKS[key] = block
    return block


def tagged_hash(tag: str | Buffer, message: Buffer) -> bytes:
    """BIP-340's hash_tag(message): SHA-256(SHA-256(tag) || SHA-256(tag) || message), as 32 bytes."""
    block = tag_block(tag)
    if type(message) is bytes and len(message) < _JOIN_BELOW:
        return oneshot.sha256_digest(block + message)
    from .._one.sha256 import sha256

    h = sha256(block)
    h.update(message)  # TypeError for str and non-buffers, as sha256's
    return h.digest()


def tagged_hash_many(tag: str | Buffer, messages: Any, *, threads: int = 1, hex: bool = False,
                     arrow_type: Any = None, out: Any = None) -> Any:
    """tagged_hash(tag, m) of each message, as sha256_many takes and gives them (a list, numpy rows,
    an Arrow, polars or pandas column; out= a caller's buffer); the tag's block is hashed once for
    the batch."""
    from .messages import _flag, hash_messages
    from .._cpus import worker_count
    from .starts import after_prefix

    as_hex = _flag(hex, "hex")
    count = worker_count(threads, "threads")
    with after_prefix(tag_block(tag)) as start:
        return hash_messages(messages, 0, count, as_hex, arrow_type, start, "tagged_hash_many", out)
