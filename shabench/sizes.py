"""Parsing --sizes: 16,32,1K,64Ki,1M (K = 1000, Ki = 1024, M = 1000000, Mi = 1048576)."""

MULTIPLIERS = {"": 1, "K": 1000, "KI": 1024, "M": 1_000_000, "MI": 1 << 20}
MAX_SIZE = 1 << 30


def parse_sizes(text):
    """[(label, bytes)] in the order given; ValueError with the offending item."""
    sizes = []
    for item in text.split(","):
        item = item.strip()
        digits = item.rstrip("KkMmIi")
        suffix = item[len(digits):].upper()
        if not digits.isdigit() or suffix not in MULTIPLIERS:
            raise ValueError(f"size {item!r} is not a number with an optional K, Ki, M or Mi")
        size = int(digits) * MULTIPLIERS[suffix]
        if not 1 <= size <= MAX_SIZE:
            raise ValueError(f"size {item!r} must be from 1 byte to 1Gi")
        sizes.append((item if suffix else f"{size}b", size))
    if len({s for _, s in sizes}) != len(sizes):
        raise ValueError("sizes must not repeat")
    return sizes
