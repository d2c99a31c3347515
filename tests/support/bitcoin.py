"""A real Bitcoin block (tests/data/README.md) and a parser of its transactions."""

from support.paths import TESTS

# A real Bitcoin block (see tests/data/README.md): 1,557 transactions, none with witnesses.
BLOCK = TESTS / "data" / "block413567.raw"


def _read_varint(data, pos):
    first = data[pos]
    if first < 0xFD:
        return first, pos + 1
    size = {0xFD: 2, 0xFE: 4, 0xFF: 8}[first]
    return int.from_bytes(data[pos + 1 : pos + 1 + size], "little"), pos + 1 + size


def block_transactions(block):
    """The serialized transactions of a block without witnesses."""
    count, pos = _read_varint(block, 80)
    for _ in range(count):
        start = pos
        pos += 4  # version
        assert block[pos] != 0, "segwit marker: this parser reads blocks without witnesses"
        n_in, pos = _read_varint(block, pos)
        for _ in range(n_in):
            pos += 36  # previous output
            script, pos = _read_varint(block, pos)
            pos += script + 4  # script, sequence
        n_out, pos = _read_varint(block, pos)
        for _ in range(n_out):
            pos += 8  # value
            script, pos = _read_varint(block, pos)
            pos += script
        pos += 4  # lock time
        yield block[start:pos]
    assert pos == len(block), "the block holds exactly its transactions"
