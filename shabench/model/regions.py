"""A kernel's block loop: the stretch of its code that one trip through hashes whole 64-byte blocks
in every lane, with the loops nested in it (the lane bodies' 16-round schedule passes) written out
as many times as they run.

A nested loop's trip count is not in the code's text; it is the one count that makes the trip whole
compressions: the rounds of the loop's own code plus t times its nested loops' come to a multiple
of 64 rounds in each lane (t from 1 to 8, the same for every loop nested directly in it). The
block loops of a kernel are its innermost such loops; a kernel with none (straight-line code such
as SHA256D64's) is its whole function, its nested loops written out the same way.
"""

import re
from dataclasses import dataclass

from . import rounds

MAX_TRIP = 8
_WAYS = re.compile(r"_(\d+)way(?:_|$)")  # libsha's
_TIMES = re.compile(r"_x(\d+)(?:_|$)")  # isa-l's and hashtree's (never libsha's x86_)


@dataclass
class Region:
    kernel: str
    instructions: list  # in program order, nested loops written out
    lanes: int
    blocks: int  # 64-byte blocks per lane a trip hashes
    label: str  # "loop", "loop 2", "function"

    @property
    def name(self):
        return self.kernel if self.label in ("loop", "function") else f"{self.kernel}#{self.label.split()[-1]}"


def lanes_of(name):
    """A kernel's lanes, from its name: libsha's `_<N>way`, isa-l's and hashtree's `_x<N>`; else 1."""
    match = _WAYS.search(name) or (None if name.startswith("libsha_") else _TIMES.search(name))
    return int(match.group(1)) if match else 1


def _children(loop, loops):
    inside = [other for other in loops if other is not loop and set(other) < set(loop)]
    return [c for c in inside if not any(set(c) < set(o) for o in inside if o is not c)]


def _expand(span, loops, trips):
    """The instructions of span (sorted indices) in order, each nested loop written out trips[id] times."""
    children = _children(span, loops)
    first = {c[0]: c for c in children}
    skip = set(i for c in children for i in c)
    out = []
    for i in span:
        if i in first:
            child = first[i]
            out.extend(_expand(child, loops, trips) * trips[id(child)])
        elif i not in skip:
            out.append(i)
    return out


def _solve(span, loops, instructions, per_lane, trips):
    """Lane-rounds of one trip through span with its nested loops' trips solved (recorded in trips), or None."""
    children = _children(span, loops)
    own = set(span) - set(i for c in children for i in c)
    own_rounds = rounds.lane_rounds(rounds.counts([instructions[i] for i in sorted(own)]))
    if own_rounds is None:
        return None
    inner = []
    for child in children:
        r = _solve(child, loops, instructions, per_lane, trips)
        if r is None:
            return None
        inner.append((child, r))
    inner_rounds = sum(r for _, r in inner)
    if inner_rounds == 0:
        for child, _ in inner:
            trips[id(child)] = 1
        return own_rounds
    for t in range(1, MAX_TRIP + 1):
        total = own_rounds + t * inner_rounds
        if total % per_lane == 0:
            for child, _ in inner:
                trips[id(child)] = t
            return total
    return None


def block_regions(function):
    """The kernel's block loops as Regions (a function with none: the whole function as one)."""
    instructions, lanes = function.instructions, lanes_of(function.name)
    per_lane = 64 * lanes
    loops = function.loops()
    found = []
    for loop in loops:
        trips = {}
        total = _solve(loop, loops, instructions, per_lane, trips)
        if total and total % per_lane == 0:
            found.append((loop, total // per_lane, trips))
    innermost = [f for f in found if not any(set(o[0]) < set(f[0]) for o in found)]
    regions = []
    for n, (loop, blocks, trips) in enumerate(sorted(innermost, key=lambda f: f[0][0]), 1):
        label = "loop" if len(innermost) == 1 else f"loop {n}"
        regions.append(Region(function.name, [instructions[i] for i in _expand(loop, loops, trips)], lanes, blocks,
                              label))
    if regions:
        return regions
    whole = list(range(len(instructions)))
    top = [l for l in loops if not any(set(l) < set(o) for o in loops if o is not l)]
    trips = {}
    total = _solve(whole, top + [l for l in loops if l not in top], instructions, per_lane, trips)
    if total and total % per_lane == 0:
        return [Region(function.name, [instructions[i] for i in _expand(whole, loops, trips)], lanes,
                       total // per_lane, "function")]
    return []
