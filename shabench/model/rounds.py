"""How many SHA-256 rounds a stretch of machine code does, per lane, read off its instructions.

Every kernel family leaves a mark a round cannot do without:
- x86 SHA-NI: `sha256rnds2` does two rounds of one lane;
- ARM's SHA-2: `sha256h` does four rounds of one lane;
- vector lanes with a rotate (AVX-512's `vprold`/`vprord`): a round's Sigma0 and Sigma1 are six
  rotates, a schedule word's sigma0 and sigma1 four rotates and two shifts, so rounds are
  (rotates - 2 shifts) / 6, times the lanes of the register (zmm 16, ymm 8, xmm 4);
- vector lanes without one (SSE4.1, AVX2): a rotate is a left and a right shift, so a round is six
  of each and a schedule word four left and six right: rounds are (3 left - 2 right) / 6;
- scalar rounds (one stream): six 32-bit rotates a round, four and two shifts a schedule word.
A schedule made in vectors for one stream (sse4, avx2 1way) cancels out of the vector count, as
it should. A count that does not come out whole is a stretch this reading does not understand.
"""

import re

_WIDTH = {"zmm": 16, "ymm": 8, "xmm": 4}
_VECTOR_ROTATE = re.compile(r"^vpro[lr]d$")
_VECTOR_RIGHT = re.compile(r"^v?psrld$")
_VECTOR_LEFT = re.compile(r"^v?pslld$")


def _width(operands):
    return next((reg for reg in _WIDTH if f"%{reg}" in operands), None)


def _immediate(operands):
    return operands.lstrip().startswith("$")


def counts(instructions):
    """The marks in a list of Instructions: {kind: count}, vector ones per register width."""
    found = {}

    def add(key):
        found[key] = found.get(key, 0) + 1

    for ins in instructions:
        m, ops = ins.mnemonic, ins.operands
        if m == "sha256rnds2":
            add("rnds2")
        elif m == "sha256h":
            add("sha256h")
        elif _VECTOR_ROTATE.match(m):
            add(("rot", _width(ops)))
        elif _VECTOR_RIGHT.match(m) and _immediate(ops):
            add(("srl", _width(ops)))
        elif _VECTOR_LEFT.match(m) and _immediate(ops):
            add(("sll", _width(ops)))
        elif m in ("rorl", "roll", "rorxl"):
            add("scalar_rot")
        elif m == "shrl" and _immediate(ops):
            add("scalar_shr")
    return found


def lane_rounds(found):
    """Rounds summed over lanes (a round of each of 16 lanes is 16), or None where not whole."""
    total = 2 * found.get("rnds2", 0) + 4 * found.get("sha256h", 0)
    for reg, lanes in _WIDTH.items():
        rot, srl, sll = (found.get((k, reg), 0) for k in ("rot", "srl", "sll"))
        if rot:
            numerator = rot - 2 * srl
        else:
            numerator = 3 * sll - 2 * srl
        if numerator <= 0:  # a one-stream schedule (or none): no round of its own
            continue
        if numerator % 6:
            return None
        total += numerator // 6 * lanes
    rot, shr = found.get("scalar_rot", 0), found.get("scalar_shr", 0)
    if (rot - 2 * shr) % 6 or rot < 2 * shr:
        return None
    return total + (rot - 2 * shr) // 6
