"""A SHA-256 computation written out step by step, in the layout of NIST's example computations
(csrc.nist.gov, "SHA-256 examples"): the padded message, then for each block W[0..63], the
working variables A..H after every round t = 0..63, and the intermediate hash H(i).

Someone whose digest is wrong can compare their own values round by round and find the first
that differs:

    python -m libsha.reference --trace abc
    python -m libsha.reference --hex 616263
"""

from __future__ import annotations

from .sha256 import BLOCK_SIZE, H0, MASK, message_schedule, padding, rounds


def _words(values: tuple[int, ...] | list[int]) -> str:
    return " ".join(f"{v:08X}" for v in values)


def trace(message: bytes) -> str:
    """The whole computation of SHA-256(message) as text; its last line is the digest."""
    padded = message + padding(len(message))
    blocks = [padded[i : i + BLOCK_SIZE] for i in range(0, len(padded), BLOCK_SIZE)]
    lines = [
        f"Message: {len(message)} bytes, {len(message) * 8} bits",
        f"Padded message: {len(blocks)} block(s) of 512 bits (0x80, zeros, the 64-bit length)",
    ]
    lines += [f"  M({i + 1}) = {block.hex().upper()}" for i, block in enumerate(blocks)]
    state: tuple[int, ...] = H0
    lines.append(f"Initial hash value: H(0) = {_words(state)}")
    for i, block in enumerate(blocks, 1):
        w = message_schedule(block)
        lines.append("")
        lines.append(f"Block {i} of {len(blocks)}: message schedule")
        lines += [f"  W[{t:2d}] = {w[t]:08X}" for t in range(64)]
        lines.append(f"Block {i} of {len(blocks)}: working variables after each round")
        lines.append("          " + "        ".join("ABCDEFGH"))
        working: tuple[int, ...] = state
        for t, working in enumerate(rounds(state, w)):
            lines.append(f"  t={t:2d}: {_words(working)}")
        new = tuple((x + y) & MASK for x, y in zip(state, working))
        lines.append(f"Intermediate hash value H({i}):")
        lines += [f"  H[{k}] = {working[k]:08X} + {state[k]:08X} = {new[k]:08X}" for k in range(8)]
        state = new
    lines.append("")
    lines.append(f"Digest: {''.join(f'{v:08x}' for v in state)}")
    return "\n".join(lines)
